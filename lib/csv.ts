/** RFC 4180: quote a field when it holds a comma, a quote or a line break; double inner quotes. One line, CRLF. */
export function csvLine(values: ReadonlyArray<unknown>): string {
  return (
    values
      .map((value) => {
        if (value === null || value === undefined) return '';
        const s = String(value);
        return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
      })
      .join(',') + '\r\n'
  );
}
