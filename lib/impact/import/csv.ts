/**
 * Reading the published CSV files of data/impact/ (csv-parse, RFC 4180: quoted fields may hold
 * commas, quotes and line breaks). A file is refused, naming it, when a column its importer needs is
 * missing: a publisher's changed layout must stop the build, not load blanks. Columns with an empty
 * header (the USGS world tables end their header with a run of commas) are dropped. Pure.
 */
import { parse } from 'csv-parse/sync';

export interface CsvRecord {
  /** Line of the file the record starts on (the header is line 1). */
  line: number;
  values: Record<string, string>;
}

export interface CsvTable {
  file: string;
  header: string[];
  records: CsvRecord[];
}

export class ImportError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

export function readCsv(text: string, file: string, required: readonly string[] = []): CsvTable {
  let raw: Array<{ record: string[]; info: { lines: number } }>;
  try {
    raw = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as never;
  } catch (err) {
    throw new ImportError(file, `not a readable CSV file (${(err as Error).message})`);
  }
  const [head, ...body] = raw;
  if (!head) throw new ImportError(file, 'the file is empty');
  const header = head.record.map((h) => h.trim());
  const missing = required.filter((c) => !header.includes(c));
  if (missing.length) throw new ImportError(file, `missing column(s) ${missing.join(', ')}`);
  const records = body
    .filter((r) => r.record.some((v) => v.trim() !== ''))
    .map((r) => {
      const values: Record<string, string> = {};
      header.forEach((h, i) => {
        if (h !== '' && !(h in values)) values[h] = (r.record[i] ?? '').trim();
      });
      // info.lines is the line the record ends on; a record spans as many lines as its line breaks.
      const breaks = r.record.reduce((a, v) => a + (v.match(/\n/g)?.length ?? 0), 0);
      return { line: r.info.lines - breaks, values };
    });
  return { file, header, records };
}

/** A number as the sources write it: "1,230 " or "170000" → 1230, 170000; anything else → null. */
export function numberOf(cell: string): number | null {
  const s = cell.replace(/,/g, '').trim();
  if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(s)) return null;
  return Number(s);
}
