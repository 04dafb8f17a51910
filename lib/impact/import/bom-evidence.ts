/**
 * Bill-of-materials lines from cited figures (data/impact/bom-literature/bom_figures.csv: one row per
 * product, material and source, with its citation and confidence). Which line takes which rows is
 * written in fixtures/impact/published/bom-evidence.json, with the formula when the register's line
 * is not the cited quantity itself (rare-earth metal → oxide, a magnet's mass from its neodymium, a
 * whole-phone figure less what the phone's board already carries). Of the rows a line rests on:
 *  - one value: the line's quantity, its spread set by the line's confidence;
 *  - several values or a range: the quantity is their median (the geometric mean of the range's
 *    ends when the sources give only a range), and the range from the smallest to the largest feeds
 *    the draws (methodology v2 §5);
 *  - `checks` rows are cited beside the line (a low-confidence or differently scoped figure) but do
 *    not set it.
 * Every cited row is named in the line's citations. Pure.
 */
import type { Basis } from '../basis.ts';
import type { Confidence } from '../types.ts';
import { ImportError, numberOf, readCsv } from './csv.ts';
import { Tally, type Reconciliation } from './reconcile.ts';

export interface EvidenceSpec {
  product: string;
  /** the line of fixtures/impact/products.json it replaces (1-based); absent: a line added */
  line?: number;
  role: string;
  /** m:<material>, p:<product> or u:<name> */
  component: string;
  unit: string;
  loss_factor?: number;
  /** rows (1-based data rows of bom_figures.csv); a nested list is summed into one value; an entry
   *  with its own scale converts that entry alone (a figure per kg of product × the product's mass) */
  figures: Array<number | number[] | { rows: number[]; scale: number }>;
  checks?: number[];
  /** value × scale − minus, in the line's unit */
  scale?: number;
  minus?: number;
  /** the formula in words, when scale or minus is set or the rows' unit differs from the line's */
  formula?: string;
  /** an authored central quantity inside the cited range (the range still feeds the draws) */
  qty?: number;
  note?: string;
}

export interface Citation {
  row: number;
  use: 'sets' | 'checks';
  value: string;
  source: string;
  page: string;
  url: string;
  confidence: string;
}

export interface EvidenceLine {
  spec: EvidenceSpec;
  qty: number;
  qty_low: number | null;
  qty_high: number | null;
  confidence: Confidence;
  basis: Basis;
  method: string | null;
  citations: Citation[];
  source_text: string;
  source_url: string;
}

const CONF: Array<[RegExp, Confidence]> = [
  [/^(high|medium-high)/, 'high'],
  [/^(medium|medium-low|low-medium)/, 'medium'],
  [/^low/, 'low'],
];
const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

export function importBomEvidence(
  text: string,
  file: string,
  specs: EvidenceSpec[],
): { lines: EvidenceLine[]; reconciliation: Reconciliation } {
  const table = readCsv(text, file, [
    'product',
    'material',
    'quantity',
    'unit',
    'min',
    'max',
    'source_title',
    'publisher_or_authors',
    'year',
    'url',
    'page_or_table',
    'confidence',
  ]);
  const rows = table.records;
  const used = new Set<number>();
  const row = (n: number, spec: EvidenceSpec) => {
    const r = rows[n - 1];
    if (!r) throw new ImportError(file, `no row ${n} (asked for ${spec.product} ${spec.role})`);
    used.add(n);
    return r.values;
  };
  const lines = specs.map((spec): EvidenceLine => {
    const values: number[] = [];
    const bounds: number[] = [];
    const citations: Citation[] = [];
    let confidence: Confidence = 'high';
    let derived = spec.scale !== undefined || spec.minus !== undefined || spec.formula !== undefined;
    const cite = (n: number, use: Citation['use']) => {
      const v = row(n, spec);
      citations.push({
        row: n,
        use,
        value: `${v.quantity || `${v.min || '…'}–${v.max || '…'}`} ${v.unit} (${v.material})`,
        source: `${v.publisher_or_authors}${v.year ? ` ${v.year}` : ''}, ${v.source_title}`,
        page: v.page_or_table!,
        url: v.url!,
        confidence: v.confidence!,
      });
      return v;
    };
    for (const f of spec.figures) {
      const group = typeof f === 'number' ? [f] : Array.isArray(f) ? f : f.rows;
      const own = typeof f === 'object' && !Array.isArray(f) ? f.scale : 1;
      if (own !== 1) derived = true;
      let sum = 0;
      let point = true;
      for (const n of group) {
        const v = cite(n, 'sets');
        if (/DERIVED/.test(v.unit!)) derived = true;
        const c = CONF.find(([re]) => re.test(v.confidence!))?.[1];
        if (!c)
          throw new ImportError(file, `row ${n}: confidence "${v.confidence}" does not say how far it can be used`);
        if (RANK[c] < RANK[confidence]) confidence = c;
        const q = numberOf(v.quantity!);
        if (q !== null) sum += q * own;
        else {
          point = false;
          for (const b of [v.min!, v.max!].map(numberOf)) if (b !== null) bounds.push(b * own);
        }
      }
      if (point) values.push(sum);
      else if (group.length > 1) throw new ImportError(file, `rows ${group.join('+')}: a range cannot be summed`);
    }
    for (const n of spec.checks ?? []) cite(n, 'checks');
    const adjust = (x: number) => x * (spec.scale ?? 1) - (spec.minus ?? 0);
    const all = [...values, ...bounds].map(adjust);
    if (all.length === 0 || all.some((x) => !(x > 0)))
      throw new ImportError(file, `${spec.product} ${spec.role}: the cited figures give no positive quantity`);
    const sorted = values.map(adjust).sort((a, b) => a - b);
    const [lo, hi] = [Math.min(...all), Math.max(...all)];
    const central =
      spec.qty ??
      (sorted.length
        ? sorted.length % 2
          ? sorted[(sorted.length - 1) / 2]!
          : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2
        : Math.sqrt(lo * hi));
    const range = hi > lo;
    const basis: Basis = spec.qty !== undefined ? 'assumption' : derived ? 'derived' : 'published';
    const sources = citations.filter((c) => c.use === 'sets');
    return {
      spec,
      qty: central,
      qty_low: range ? lo : null,
      qty_high: range ? hi : null,
      confidence,
      basis,
      method:
        spec.qty !== undefined
          ? `${spec.qty} ${spec.unit} authored, inside the ${lo}–${hi} ${spec.unit} the cited sources give${spec.formula ? `; ${spec.formula}` : ''}`
          : (spec.formula ?? (derived ? 'as the cited rows derive it (see their unit)' : null)),
      citations,
      source_text: `Cited: ${sources.map((c) => `${c.source} (${c.page || 'page not stated'})`).join('; ')}`,
      source_url: sources[0]!.url,
    };
  });
  const tally = new Tally(file).read(rows.length);
  tally.imported(used.size);
  tally.skip('out_of_scope', rows.length - used.size);
  return { lines, reconciliation: tally.done() };
}
