/**
 * ILOSTAT occupational injuries by economic activity, the bulk extract of April 2021
 * (data/impact/ilostat-occupational-injuries-2021/): fatal (INJ_FATL_ECO_NB) and non-fatal
 * (INJ_NFTL_ECO_NB) cases per country, activity and year, as the countries report them. The register
 * keeps them per activity the model can attribute:
 *   A  agriculture, forestry and fishing     B  mining and quarrying     C  manufacturing
 *   D-U every other section (utilities, construction, services), summed
 * from ISIC Rev.4 sections; a country-year reported only under ISIC Rev.3 (A+B → A, C → B, D → C,
 * E–Q → D-U) or Rev.2 (1 → A, 2 → B, 3 → C, 4–9 → D-U) is read through that correspondence; a
 * country-year reported under a newer revision supersedes the older ones. Rates per 100,000 workers,
 * totals, aggregates and "not elsewhere classified" are not inputs. A country that reports nothing has
 * no row: nothing is invented. Pure.
 */
import { numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export type Activity = 'A' | 'B' | 'C' | 'D-U';

export interface WorkRow {
  iso3: string;
  activity: Activity;
  year: number;
  deaths: number | null;
  injuries: number | null;
  /** the classification and sections summed, e.g. "ISIC Rev.4 B" or "ISIC Rev.4 D+E+…+U" */
  read_as: string;
  quality: 'reported' | 'estimated';
}

const REV4: Record<string, Activity> = { A: 'A', B: 'B', C: 'C' };
const REV3: Record<string, Activity> = { A: 'A', B: 'A', C: 'B', D: 'C' };
const REV2: Record<string, Activity> = { '1': 'A', '2': 'B', '3': 'C' };

/** The activity a classif1 code is read as, its revision (4, 3, 2), or why it is not an input. */
function classify(code: string): { rev: number; section: string; activity: Activity } | 'aggregate' | 'out_of_scope' {
  const m = /^ECO_(ISIC4|ISIC3|ISIC2|AGGREGATE)_(.+)$/.exec(code);
  if (!m || m[1] === 'AGGREGATE' || m[2] === 'TOTAL') return 'aggregate';
  const [rev, section] = [Number(m[1]!.slice(4)), m[2]!];
  if (section === 'X' || section === '0') return 'out_of_scope';
  const table = rev === 4 ? REV4 : rev === 3 ? REV3 : REV2;
  return { rev, section, activity: table[section] ?? 'D-U' };
}

const COLUMNS = ['ref_area', 'indicator', 'classif1', 'time', 'obs_value', 'obs_status'] as const;

export function importWorkInjuries(
  files: Array<{ text: string; file: string; indicator: string; metric: 'deaths' | 'injuries' }>,
  isoCodes: ReadonlySet<string>,
): { rows: WorkRow[]; reconciliation: Reconciliation[] } {
  const out = new Map<string, WorkRow & { sections: Map<'deaths' | 'injuries', string[]> }>();
  const reconciliation: Reconciliation[] = [];
  for (const f of files) {
    const table = readCsv(f.text, f.file, COLUMNS);
    const tally = new Tally(f.file).read(table.records.length);
    // The newest revision each country-year reports in: older ones are superseded.
    const newest = new Map<string, number>();
    for (const { values: v } of table.records) {
      const c = classify(v.classif1!);
      if (v.indicator === f.indicator && typeof c === 'object')
        newest.set(`${v.ref_area}|${v.time}`, Math.max(newest.get(`${v.ref_area}|${v.time}`) ?? 0, c.rev));
    }
    for (const { values: v } of table.records) {
      if (v.indicator !== f.indicator) {
        tally.skip('out_of_scope'); // the rate per 100,000 workers: the model counts cases
        continue;
      }
      const c = classify(v.classif1!);
      if (typeof c === 'string') {
        tally.skip(c);
        continue;
      }
      if (!isoCodes.has(v.ref_area!)) {
        tally.skip('unmapped_code');
        continue;
      }
      if (c.rev < newest.get(`${v.ref_area}|${v.time}`)!) {
        tally.skip('superseded');
        continue;
      }
      const value = numberOf(v.obs_value!);
      if (value === null) {
        tally.skip('no_value');
        continue;
      }
      const year = Number(v.time);
      const key = `${v.ref_area}|${c.activity}|${year}`;
      const row = out.get(key) ?? {
        iso3: v.ref_area!,
        activity: c.activity,
        year,
        deaths: null,
        injuries: null,
        read_as: '',
        quality: 'reported' as const,
        sections: new Map(),
      };
      row[f.metric] = (row[f.metric] ?? 0) + value;
      const sections = row.sections.get(f.metric) ?? [];
      sections.push(`${c.rev}:${c.section}`);
      row.sections.set(f.metric, sections);
      if (v.obs_status === 'U') row.quality = 'estimated'; // flagged unreliable by ILOSTAT
      out.set(key, row);
      tally.imported();
    }
    reconciliation.push(tally.done());
  }
  const rows = [...out.values()]
    .map(({ sections, ...row }) => {
      const all = [...new Set([...sections.values()].flat())].sort();
      const rev = all[0]!.split(':')[0];
      return { ...row, read_as: `ISIC Rev.${rev} ${all.map((s) => s.split(':')[1]).join('+')}` };
    })
    .sort((a, b) => a.iso3.localeCompare(b.iso3) || a.activity.localeCompare(b.activity) || a.year - b.year);
  return { rows, reconciliation };
}
