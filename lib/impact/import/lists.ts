/**
 * The register's list facts, each from its published list:
 *  - World Bank income groups and regions, FY2025 (data/impact/worldbank-income-groups-fy2025/), by
 *    code; the World Bank's codes are ISO 3166-1 alpha-3 except Kosovo (XKX) and the Channel Islands
 *    (CHI), which have none and are counted as unmapped;
 *  - criticality: the EU Critical Raw Materials Act's strategic (Annex I) and critical (Annex II) lists
 *    and the USGS 2022 List of Critical Minerals (MCS 2024 table 4), matched by the entries each
 *    material names (fixtures/impact/published/materials.json);
 *  - the conflict-mineral (3TG) scope of Regulation (EU) 2017/821 and Dodd-Frank s.1502.
 * Pure.
 */
import { ImportError, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';
import type { IncomeGroups } from '../countries.ts';

const CODES: Record<string, string> = {
  'High income': 'HIC',
  'Upper middle income': 'UMC',
  'Lower middle income': 'LMC',
  'Low income': 'LIC',
};

export interface IncomeFacts {
  income: IncomeGroups;
  /** World Bank region by ISO alpha-3 (every listed economy, classified or not) */
  regions: Map<string, string>;
}

export function importIncomeGroups(
  text: string,
  file: string,
  isoCodes: ReadonlySet<string>,
): { facts: IncomeFacts; reconciliation: Reconciliation } {
  const table = readCsv(text, file, ['iso3', 'economy', 'region', 'income_group']);
  const tally = new Tally(file).read(table.records.length);
  const groups: Record<string, string[]> = { HIC: [], UMC: [], LMC: [], LIC: [] };
  const notClassified: Record<string, string> = {};
  const regions = new Map<string, string>();
  for (const { line, values: v } of table.records) {
    if (!isoCodes.has(v.iso3!)) {
      tally.skip('unmapped_code');
      tally.note(`line ${line}: ${v.economy} (${v.iso3}) has no ISO 3166-1 code`);
      continue;
    }
    regions.set(v.iso3!, v.region!);
    if (v.income_group === '') {
      notClassified[v.iso3!] = `${v.economy}: listed by the World Bank without an income group`;
      tally.unknown();
      continue;
    }
    const code = CODES[v.income_group!];
    if (!code) throw new ImportError(file, `line ${line}: income group "${v.income_group}" is not one of the four`);
    groups[code]!.push(v.iso3!);
    tally.imported();
  }
  const names = Object.fromEntries(Object.entries(CODES).map(([name, code]) => [code, name]));
  return {
    facts: { income: { groups, names, unsure: {}, not_classified: notClassified }, regions },
    reconciliation: tally.done(),
  };
}

export interface CriticalityKeys {
  material: string;
  /** item letters of Annex I (strategic) and Annex II (critical) that cover it */
  eu: { strategic: string[]; critical: string[] };
  /** names in the USGS 2022 list (table 4) that cover it */
  us: string[];
}

export interface Criticality {
  level: string;
  source: string;
  eu: 'strategic' | 'critical' | 'not listed';
  us: boolean;
}

export function importCriticality(
  eu: { text: string; file: string },
  us: { text: string; file: string },
  keys: CriticalityKeys[],
): { byMaterial: Map<string, Criticality>; reconciliation: Reconciliation[] } {
  const euTable = readCsv(eu.text, eu.file, ['annex', 'list', 'item_letter', 'raw_material_en']);
  const usTable = readCsv(us.text, us.file, ['Critical Mineral']);
  const euEntries = new Map(euTable.records.map((r) => [`${r.values.annex}|${r.values.item_letter}`, r.values]));
  const usNames = new Set(usTable.records.map((r) => r.values['Critical Mineral']!.trim()));
  const usedEu = new Set<string>();
  const usedUs = new Set<string>();
  const byMaterial = new Map<string, Criticality>();
  for (const k of keys) {
    const cite = (annex: string, letters: string[]) =>
      letters.map((l) => {
        const e = euEntries.get(`${annex}|${l}`);
        if (!e) throw new ImportError(eu.file, `Annex ${annex} has no point (${l}) (asked for ${k.material})`);
        usedEu.add(`${annex}|${l}`);
        return `Annex ${annex} (${l}) ${e.raw_material_en}`;
      });
    for (const name of k.us) {
      if (!usNames.has(name)) throw new ImportError(us.file, `no "${name}" in the list (asked for ${k.material})`);
      usedUs.add(name);
    }
    const strategic = cite('I', k.eu.strategic);
    const critical = cite('II', k.eu.critical);
    const level = strategic.length ? 'strategic' : critical.length ? 'critical' : 'not listed';
    const euText = [...strategic, ...critical].join('; ');
    byMaterial.set(k.material, {
      level,
      eu: level,
      us: k.us.length > 0,
      source: `EU: Regulation (EU) 2024/1252, ${euText || 'on neither list'}. US: 2022 List of Critical Minerals (USGS MCS 2024 table 4), ${k.us.length ? `listed as ${k.us.join(', ')}` : 'not listed'}.`,
    });
  }
  const euTally = new Tally(eu.file).read(euTable.records.length);
  euTally.imported(usedEu.size);
  euTally.skip('out_of_scope', euTable.records.length - usedEu.size);
  const usTally = new Tally(us.file).read(usTable.records.length);
  usTally.imported(usedUs.size);
  usTally.skip('out_of_scope', usTable.records.length - usedUs.size);
  return { byMaterial, reconciliation: [euTally.done(), usTally.done()] };
}

export interface ConflictMineral {
  flag: boolean;
  source: string;
}

export function importConflictMinerals(
  text: string,
  file: string,
  materials: readonly string[],
): { byMaterial: Map<string, ConflictMineral>; reconciliation: Reconciliation } {
  const table = readCsv(text, file, ['instrument', 'material', 'in_scope', 'legal_basis']);
  const tally = new Tally(file).read(table.records.length);
  const instruments = new Map<string, string[]>();
  for (const { values: v } of table.records) {
    if (v.in_scope !== '1' || !materials.includes(v.material!)) {
      tally.skip('out_of_scope');
      continue;
    }
    const list = instruments.get(v.material!) ?? [];
    list.push(`${v.instrument} (${v.legal_basis})`);
    instruments.set(v.material!, list);
    tally.imported();
  }
  const byMaterial = new Map(
    materials.map((m) => {
      const list = instruments.get(m);
      return [
        m,
        list
          ? { flag: true, source: list.join('; ') }
          : { flag: false, source: 'Not in the 3TG scope of Regulation (EU) 2017/821 or Dodd-Frank s.1502' },
      ] as const;
    }),
  );
  return { byMaterial, reconciliation: tally.done() };
}
