/**
 * Bill-of-materials lines from published figures (bom-tables.ts reads them: cited product figures,
 * compositions by standard designation, BatPaC's mineral content per kWh). Which line takes which rows
 * is written in fixtures/impact/published/bom-evidence.json, with the formula when the register's line
 * is not the published quantity itself (rare-earth metal → oxide, a magnet's mass from its neodymium,
 * a per-kWh intensity × a pack's capacity, the carbide phase less its binder). Of the rows a line rests on:
 *  - one value: the line's quantity, its spread set by the line's confidence;
 *  - several values or a range (a standard's min–max): the quantity is the median of the values (the
 *    geometric mean of the range's ends when the sources give only a range), and the range from the
 *    smallest to the largest feeds the draws (methodology v2 §5);
 *  - `range` rows widen that range without setting the quantity (other studies of the same content);
 *  - `checks` rows are cited beside the line (a low-confidence or differently scoped figure) but do
 *    not set it.
 * A line whose quantity is the product's own definition (a 37 Wh power bank holds 0.037 kWh of cells)
 * says so in `defined` and rests on the catalogue. A crop-to-input line (`convert`: green coffee in a
 * pack of roasted coffee) divides the input the product's definition fixes by FAO's extraction rates,
 * step by step along the commodity tree (conversion.ts). Every row used is named in the line's citations.
 * Pure.
 */
import type { Basis } from '../basis.ts';
import type { Confidence } from '../types.ts';
import type { EvidenceRow, EvidenceTables, TableSource } from './bom-tables.ts';
import { convert, type Conversion } from './conversion.ts';
import { ImportError } from './csv.ts';

/** A row of one of the evidence tables: a number is a row of bom_figures.csv; else `bom:N`, `add:N`,
 *  `std:N` or `batpac:<chemistry>/<mineral>`. */
export type Ref = number | string;

export interface EvidenceSpec {
  product: string;
  /** the line of fixtures/impact/products.json it replaces (1-based); absent: a line added */
  line?: number;
  role: string;
  /** m:<material>, p:<product> or u:<name> */
  component: string;
  unit: string;
  loss_factor?: number;
  /** rows that set the quantity; a nested list is summed into one value (ranges add end to end); an
   *  entry with its own scale converts that entry alone (a figure per kg of product × the product's mass;
   *  with `unit`, a change of unit only, kg → g, which leaves a published value published); inside a
   *  nested list, a scaled entry counts its rows that many times (two wheels of one component) */
  figures: Array<Ref | Array<Ref | Scaled> | Scaled>;
  /** rows that widen the range the draws take, without setting the quantity (scaled to the line's unit) */
  range?: Array<Ref | Scaled>;
  checks?: Ref[];
  /** value × scale − minus, in the line's unit */
  scale?: number;
  minus?: number;
  /** the formula in words, when scale or minus is set or the rows' unit differs from the line's */
  formula?: string;
  /** an authored central quantity inside the cited range (the range still feeds the draws); with
   *  `defined`, the quantity the product's definition fixes */
  qty?: number;
  /** the product's own definition fixes the quantity (its archetype: "37 Wh pack"), in words */
  defined?: string;
  /** a crop-to-input conversion (conversion.ts); figures stay empty */
  convert?: Conversion;
  /** how far the line can be trusted, where its rows do not say (standards, BatPaC, FAO's factors) */
  confidence?: Confidence;
  note?: string;
}

export interface Scaled {
  rows: Ref[];
  scale: number;
  unit?: boolean;
}

export interface Citation {
  /** the file the row is in and its data row (1-based) */
  file: string;
  row: number;
  use: 'sets' | 'range' | 'checks';
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
  /** the provenance of the line: the table of its first setting row, or the catalogue */
  from: TableSource;
}

const CONF: Array<[RegExp, Confidence]> = [
  [/^(high|medium-high)/, 'high'],
  [/^(medium|medium-low|low-medium)/, 'medium'],
  [/^low/, 'low'],
];
const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };

/** The catalogue itself (fixtures/impact/products.json): what a product's definition fixes. */
const CATALOGUE: TableSource = {
  source: 'trio-catalogue',
  release: 'products.json',
  file: 'fixtures/impact/products.json',
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function importBomEvidence(
  tables: EvidenceTables,
  specs: EvidenceSpec[],
): { lines: EvidenceLine[]; used: Map<string, Citation['use']> } {
  // each row's strongest use: a row that sets or widens any line is imported, one only cited beside is a check
  const used = new Map<string, Citation['use']>();
  const refOf = (r: Ref) => (typeof r === 'number' ? `bom:${r}` : r);
  const seen = new Set<string>();
  for (const s of specs)
    for (const key of [`${s.product}|${s.role}`, ...(s.line === undefined ? [] : [`${s.product}|line ${s.line}`])]) {
      if (seen.has(key)) throw new ImportError(specFile, `two lines for ${key.replace('|', ' ')}`);
      seen.add(key);
    }
  const lines = specs.map((spec): EvidenceLine => {
    const where = `${spec.product} ${spec.role}`;
    const citations: Citation[] = [];
    const cite = (r: Ref, use: Citation['use']): EvidenceRow => {
      const ref = refOf(r);
      const v = tables.rows.get(ref);
      if (!v) throw new ImportError(specFile, `no row ${ref} (asked for ${where})`);
      if (use !== 'checks' || !used.has(ref)) used.set(ref, use === 'checks' ? 'checks' : 'sets');
      const value =
        v.quantity !== null
          ? `${v.quantity}${v.min !== null || v.max !== null ? ` (${v.min ?? '…'}–${v.max ?? '…'})` : ''}`
          : `${v.min ?? '…'}–${v.max ?? '…'}`;
      citations.push({
        file: tables.sources[v.table].file,
        row: v.row,
        use,
        value: `${value} ${v.unit} (${v.material})`,
        source: v.source,
        page: v.page,
        url: v.url,
        confidence: v.confidence ?? spec.confidence ?? '',
      });
      return v;
    };
    if (spec.defined !== undefined) return definedLine(spec);
    if (spec.convert !== undefined) {
      if (spec.figures.length || spec.confidence === undefined)
        throw new ImportError(specFile, `${where}: a conversion states its confidence and no figures`);
      const c = convert(spec.convert, spec.unit, (r) => cite(r, 'sets'), specFile);
      const first = tables.rows.get(spec.convert.steps[0]!.rows[0]!)!;
      return {
        spec,
        qty: c.qty,
        qty_low: c.high > c.low ? c.low : null,
        qty_high: c.high > c.low ? c.high : null,
        confidence: spec.confidence,
        basis: 'derived',
        method: c.method,
        citations,
        source_text: `Derived: ${spec.convert.defined}, ÷ FAO's extraction rates (${spec.convert.steps.map((s) => s.step).join('; ')}), ${first.source}`,
        source_url: first.url,
        from: tables.sources[first.table],
      };
    }
    const values: number[] = [];
    const bounds: number[] = [];
    let confidence: Confidence = 'high';
    let derived = spec.scale !== undefined || spec.minus !== undefined || spec.formula !== undefined;
    for (const f of spec.figures) {
      const group = Array.isArray(f) ? f.flatMap(scaledRows) : scaledRows(f);
      if (group.some(([, own, unit]) => own !== 1 && !unit)) derived = true;
      let point: number | null = 0;
      let lo: number | null = 0;
      let hi: number | null = 0;
      for (const [r, own] of group) {
        const v = cite(r, 'sets');
        if (v.derived) derived = true;
        const stated = v.confidence ?? spec.confidence;
        const c = stated === undefined ? undefined : CONF.find(([re]) => re.test(stated))?.[1];
        if (!c) throw new ImportError(specFile, `${where}: row ${refOf(r)} does not say how far it can be used`);
        if (RANK[c] < RANK[confidence]) confidence = c;
        point = point !== null && v.quantity !== null ? point + v.quantity * own : null;
        const [l, h] = [v.min ?? v.quantity ?? v.max, v.max ?? v.quantity ?? v.min];
        lo = lo !== null && l !== null ? lo + l * own : null;
        hi = hi !== null && h !== null ? hi + h * own : null;
      }
      if (point !== null) values.push(point);
      if (lo !== null && hi !== null) bounds.push(lo, hi);
      else if (point === null)
        throw new ImportError(specFile, `${where}: rows ${group.map(([r]) => r).join('+')} give no value`);
    }
    for (const e of spec.range ?? []) {
      const [rows, own] = typeof e === 'object' ? [e.rows, e.scale] : [[e], 1];
      for (const r of rows) {
        const v = cite(r, 'range');
        for (const b of [v.min, v.quantity, v.max]) if (b !== null) bounds.push(b * own);
      }
    }
    for (const r of spec.checks ?? []) cite(r, 'checks');
    const adjust = (x: number) => x * (spec.scale ?? 1) - (spec.minus ?? 0);
    const all = [...values, ...bounds].map(adjust);
    if (all.length === 0 || all.some((x) => !(x > 0)))
      throw new ImportError(specFile, `${where}: the cited figures give no positive quantity`);
    const [lo, hi] = [Math.min(...all), Math.max(...all)];
    const central = spec.qty ?? (values.length ? median(values.map(adjust)) : Math.sqrt(lo * hi));
    const range = hi > lo;
    const basis: Basis = spec.qty !== undefined ? 'assumption' : derived ? 'derived' : 'published';
    const setting = citations.filter((c) => c.use === 'sets');
    const first = tables.rows.get(refOf(firstRef(spec.figures)))!;
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
      source_text: `Cited: ${setting.map((c) => `${c.source} (${c.page || 'page not stated'})`).join('; ')}`,
      source_url: setting[0]!.url,
      from: tables.sources[first.table],
    };
  });
  return { lines, used };
}

const specFile = 'fixtures/impact/published/bom-evidence.json';

/** An entry's rows, each with the scale it is counted at and whether that scale is a change of unit only. */
function scaledRows(e: Ref | Scaled): Array<[Ref, number, boolean]> {
  return typeof e === 'object'
    ? e.rows.map((r): [Ref, number, boolean] => [r, e.scale, e.unit === true])
    : [[e, 1, false]];
}

function firstRef(figures: EvidenceSpec['figures']): Ref {
  const f = figures[0];
  if (f === undefined) throw new ImportError(specFile, 'a line with no figures');
  const [first] = Array.isArray(f) ? f.flatMap(scaledRows) : scaledRows(f);
  if (first === undefined) throw new ImportError(specFile, 'a line with an empty group of figures');
  return first[0];
}

/** A line the product's definition fixes: its quantity is the definition, read from the catalogue. */
function definedLine(spec: EvidenceSpec): EvidenceLine {
  if (spec.qty === undefined || !(spec.qty > 0) || spec.figures.length)
    throw new ImportError(specFile, `${spec.product} ${spec.role}: a defined line states its qty and no figures`);
  return {
    spec,
    qty: spec.qty,
    qty_low: null,
    qty_high: null,
    confidence: spec.confidence ?? 'high',
    basis: 'derived',
    method: `The product's definition: ${spec.defined}.`,
    citations: [],
    source_text: `The product's definition in the catalogue: ${spec.defined}.`,
    source_url: 'fixtures/impact/products.json',
    from: CATALOGUE,
  };
}
