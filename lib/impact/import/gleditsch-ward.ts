/**
 * Gleditsch–Ward country codes (UCDP's `gwno_*` and `country_id`) to ISO 3166-1 alpha-3, through the
 * published table data/impact/gleditsch-ward-iso/gw_iso3.csv (data/impact/gleditsch-ward-iso/SOURCE.md
 * cites where each code's mapping comes from). A code the table does not map (a state that no longer exists, Kosovo) is an unmapped
 * code: the rows under it are skipped and counted, never guessed. Pure.
 */
import { ImportError, readCsv } from './csv.ts';

export interface GwCode {
  code: string;
  name: string;
  iso3: string | null;
  basis: 'published' | 'derived';
}

export type GwTable = ReadonlyMap<string, GwCode>;

export function readGwTable(text: string, file: string, isoCodes: ReadonlySet<string>): GwTable {
  const table = new Map<string, GwCode>();
  for (const { line, values: v } of readCsv(text, file, ['gw_code', 'gw_name', 'iso3', 'basis']).records) {
    if (!/^\d+$/.test(v.gw_code!)) throw new ImportError(file, `line ${line}: gw_code "${v.gw_code}" is not a number`);
    if (v.basis !== 'published' && v.basis !== 'derived')
      throw new ImportError(file, `line ${line}: basis "${v.basis}" is neither published nor derived`);
    const iso3 = v.iso3 || null;
    if (iso3 !== null && !isoCodes.has(iso3))
      throw new ImportError(file, `line ${line}: ${iso3} is not an ISO 3166-1 alpha-3 code`);
    if (table.has(v.gw_code!)) throw new ImportError(file, `line ${line}: code ${v.gw_code} listed twice`);
    table.set(v.gw_code!, { code: v.gw_code!, name: v.gw_name!, iso3, basis: v.basis });
  }
  return table;
}

/** The codes of a UCDP multi-code cell ("630, 645"). */
export const gwCodes = (cell: string): string[] =>
  cell
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
