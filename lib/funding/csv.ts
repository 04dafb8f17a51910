/**
 * A small tolerant reader for the CORDIS CSV exports (semicolon-separated, quoted fields may hold the
 * separator and line breaks). About 950 real rows carry UNESCAPED quotes (`"The "blue" carbon"`), so
 * RFC 4180 alone would run fields together. Rules inside a quoted field:
 *  - `""` is an escaped quote, except that `""` right before a separator or line end, after an
 *    unmatched bare quote, is that bare quote's partner followed by the field's closing quote
 *    (`"Known as "nature""` → Known as "nature");
 *  - a quote followed by a separator, a line end or the end of the text closes the field;
 *  - any other quote is taken literally (it is an unescaped one).
 * A quote inside an unquoted field is literal. Callers check each row's field count against the
 * header, which catches the one ambiguity left (a bare quote right before a separator).
 */

export interface CsvRow {
  line: number;
  fields: string[];
}

export function parseCsv(input: string, sep = ';'): CsvRow[] {
  const s = input.replace(/^\uFEFF/, '');
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const atBoundary = (j: number) => j >= s.length || s[j] === sep || s[j] === '\n' || s[j] === '\r';
  const endRow = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) rows.push({ line: rowLine, fields });
    fields = [];
    field = '';
  };

  while (i < s.length) {
    const c = s[i]!;
    if (c === '"' && field === '') {
      // Quoted field.
      let bare = false; // an unmatched unescaped quote was seen inside this field
      i++;
      for (;;) {
        if (i >= s.length) break;
        const d = s[i]!;
        if (d === '"') {
          if (s[i + 1] === '"') {
            if (bare && atBoundary(i + 2)) {
              field += '"';
              i += 2;
              break;
            }
            field += '"';
            i += 2;
            continue;
          }
          if (atBoundary(i + 1)) {
            i++;
            break;
          }
          field += '"';
          bare = !bare;
          i++;
          continue;
        }
        if (d === '\r' && s[i + 1] === '\n') {
          field += '\n';
          line++;
          i += 2;
          continue;
        }
        if (d === '\n') line++;
        field += d;
        i++;
      }
      // After the closing quote: a separator, a line end or the end (atBoundary guaranteed it).
      continue;
    }
    if (c === sep) {
      fields.push(field);
      field = '';
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
      continue;
    }
    field += c;
    i++;
  }
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}
