/**
 * The seven gates a run must pass to be published (methodology v1 §9). Each is a pure function of
 * the register, the run's checks or its rows, and says how many offenders it found, how many of them
 * are explained by a documented reason (those do not fail it) and what they are. A run with a failed
 * gate is stored, marked failed, and never published.
 */
import { hashKey } from './random.ts';
import type { RunChecks } from './engine.ts';
import { serializeRows, type RunRows, type StatColumns } from './rows.ts';
import type { Register } from './types.ts';

export const GATES = [
  'bom_resolves',
  'production_consistent',
  'figures_ordered',
  'sums_to_headline',
  'attributed_within_counted',
  'sources_licensed',
  'reproducible',
] as const;
export type GateName = (typeof GATES)[number];

export interface GateResult {
  gate: GateName;
  passed: boolean;
  offenders: number;
  explained: number;
  detail: string;
}

const REL = 1e-9;
const list = (items: string[], max = 5) =>
  items.slice(0, max).join('; ') + (items.length > max ? `; and ${items.length - max} more` : '');

function result(gate: GateName, offenders: string[], explained: string[], ok: string): GateResult {
  const failing = offenders.length - explained.length;
  const parts = [];
  if (failing > 0) parts.push(`${failing} failing: ${list(offenders.filter((o) => !explained.includes(o)))}`);
  if (explained.length > 0) parts.push(`${explained.length} explained: ${list(explained)}`);
  return {
    gate,
    passed: failing === 0,
    offenders: offenders.length,
    explained: explained.length,
    detail: parts.length ? parts.join('. ') : ok,
  };
}

/** Every bill of materials resolves, without cycles. Unmodelled lines are documented: explained. */
export function gateBom(checks: RunChecks, reg: Register): GateResult {
  const { bom } = checks;
  const unmodelled = bom.unmodelled.map((u) => `${u.product} line ${u.line} is not modelled`);
  const offenders = [
    ...bom.unresolved.map((u) => `${u.product} line ${u.line}: ${u.reason}`),
    ...bom.cycles.map((c) => `cycle ${[...c, c[0]].join(' → ')}`),
    ...unmodelled,
  ];
  return result(
    'bom_resolves',
    offenders,
    unmodelled,
    `${reg.products.length} products, ${reg.bom.length} lines: every line resolves and no product contains itself`,
  );
}

/** Production is finite and non-negative, and listed countries do not add up to more than the world. */
export function gateProduction(reg: Register): GateResult {
  const offenders: string[] = [];
  const explained: string[] = [];
  const countries = new Set(reg.countries.map((c) => c.iso3));
  for (const p of reg.production) {
    for (const c of p.countries) {
      if (c.qty === null) {
        // Withheld or not available in the source: listed as unknown, never as zero; it carries no harm.
        const o = `${p.material} ${p.year} ${c.iso3}: quantity ${c.quality.replace('_', ' ')} by the source (unknown)`;
        offenders.push(o);
        explained.push(o);
      } else if (!(Number.isFinite(c.qty) && c.qty >= 0))
        offenders.push(`${p.material} ${p.year} ${c.iso3}: quantity ${c.qty}`);
      if (!countries.has(c.iso3)) offenders.push(`${p.material} ${p.year}: unknown country ${c.iso3}`);
    }
    const listed = p.countries.reduce((a, c) => a + (c.qty ?? 0), 0);
    if (p.world_total !== null && listed > p.world_total * (1 + REL)) {
      const o = `${p.material} ${p.year}: listed countries ${fmt(listed)} > world ${fmt(p.world_total)} (+${((listed / p.world_total - 1) * 100).toFixed(1)}%)`;
      offenders.push(o);
      if (p.note && listed <= p.world_total * 1.05) explained.push(o);
    }
  }
  for (const m of reg.materials) {
    if (!reg.production.some((p) => p.material === m.slug)) {
      const o = `${m.slug}: no production record (the material carries no harm)`;
      offenders.push(o);
      explained.push(o);
    }
  }
  return result(
    'production_consistent',
    offenders,
    explained,
    `${reg.production.length} production records: shares consistent with their world totals`,
  );
}

/** low ≤ median ≤ high, low ≤ central ≤ high, nothing negative or not finite, central null iff INDICATIVE. */
export function gateFigures(rows: RunRows): GateResult {
  const offenders: string[] = [];
  const check = (
    what: string,
    s: Omit<StatColumns, 'central' | 'grade'> & Partial<Pick<StatColumns, 'central' | 'grade'>>,
  ) => {
    const values = [
      s.low,
      s.median,
      s.high,
      s.mean,
      ...(s.central === null || s.central === undefined ? [] : [s.central]),
    ];
    const tol = REL * Math.max(Math.abs(s.high), Number.MIN_VALUE);
    if (values.some((x) => !Number.isFinite(x))) offenders.push(`${what}: not finite`);
    else if (values.some((x) => x < 0)) offenders.push(`${what}: negative`);
    else if (!(s.low <= s.median && s.median <= s.high)) offenders.push(`${what}: interval out of order`);
    else if (s.central !== null && s.central !== undefined && !(s.low - tol <= s.central && s.central <= s.high + tol))
      offenders.push(`${what}: central outside its interval`);
    if (s.grade !== undefined && (s.grade === 'INDICATIVE') !== (s.central === null))
      offenders.push(`${what}: central must be null exactly when INDICATIVE`);
  };
  rows.figures.forEach((f) => check(`${f.subject_key} ${f.metric} ${f.basis}`, f));
  rows.contributions.forEach((c) => check(`${c.product} ${c.metric} ${c.route} ${c.dimension}=${c.key}`, c));
  rows.spend.forEach((s) => check(`spend ${s.code} ${s.metric}`, s));
  rows.reach.forEach((r) => check(`reach ${r.subject_type} ${r.subject_key} ${r.metric} #${r.rank}`, r));
  rows.intensities.forEach((i) => check(`intensity ${i.region}:${i.sector} ${i.channel} ${i.metric}`, i));
  const n =
    rows.figures.length + rows.contributions.length + rows.spend.length + rows.reach.length + rows.intensities.length;
  return result('figures_ordered', offenders, [], `${n} figures: every interval ordered, finite and non-negative`);
}

const close = (a: number, b: number) => Math.abs(a - b) <= REL * Math.max(Math.abs(a), Math.abs(b)) + 1e-300;

/** Every explain stage and every contribution breakdown sums to its headline (means). */
export function gateSums(rows: RunRows): GateResult {
  const offenders: string[] = [];
  const head = new Map<string, number>();
  for (const f of rows.figures) {
    if (f.subject_type !== 'product') continue;
    if (f.basis === 'per_unit') head.set(`${f.subject_key}|${f.metric}|material`, f.mean);
    if (f.basis === 'per_1000_eur') head.set(`${f.subject_key}|${f.metric}|mrio`, f.mean);
  }
  const sums = new Map<string, number>();
  for (const c of rows.contributions) {
    const k = `${c.product}|${c.metric}|${c.route}|${c.dimension}`;
    sums.set(k, (sums.get(k) ?? 0) + c.mean);
  }
  for (const [k, sum] of sums) {
    const [product, metric, route, dimension] = k.split('|');
    const h = head.get(`${product}|${metric}|${route}`);
    if (h === undefined || !close(sum, h))
      offenders.push(`${product} ${metric} ${route} by ${dimension}: ${fmt(sum)} ≠ ${fmt(h ?? NaN)}`);
  }
  for (const metric of new Set(rows.reach.map((r) => r.metric))) {
    const total = (type: string, key?: string) =>
      rows.reach
        .filter(
          (r) =>
            r.metric === metric &&
            r.rank === 0 &&
            r.subject_type === type &&
            (key === undefined || r.subject_key === key),
        )
        .reduce((a, r) => a + r.mean, 0);
    if (!close(total('country'), total('channel')))
      offenders.push(`reach ${metric}: countries ${fmt(total('country'))} ≠ channels ${fmt(total('channel'))}`);
    if (!close(total('conflict'), total('channel', 'C1')))
      offenders.push(
        `reach ${metric}: conflicts ${fmt(total('conflict'))} ≠ channel C1 ${fmt(total('channel', 'C1'))}`,
      );
  }
  return result(
    'sums_to_headline',
    offenders,
    [],
    `${sums.size} breakdowns and explain stages, and the reach totals, sum to their headlines`,
  );
}

/** Attributed harm never exceeds the harm counted for its channel, country and year (in any draw). */
export function gateCounted(checks: RunChecks): GateResult {
  const offenders = checks.ratios
    .filter((r) => r.ratio > 1 + REL)
    .map((r) => `${r.channel} ${r.iso3} ${r.year} ${r.metric}: attributed ${(r.ratio * 100).toFixed(1)}% of counted`);
  const worst = Math.max(0, ...checks.ratios.map((r) => r.ratio));
  return result(
    'attributed_within_counted',
    offenders,
    [],
    `${checks.ratios.length} channel-country-years: at most ${(worst * 100).toFixed(1)}% of counted harm attributed in any draw`,
  );
}

/** Every source the run used is enabled, has a licence and the credit it requires. */
export function gateSources(checks: RunChecks, reg: Register): GateResult {
  const byCode = new Map(reg.sources.map((s) => [s.code, s]));
  const offenders: string[] = [];
  for (const code of checks.sourcesUsed) {
    const s = byCode.get(code);
    if (!s) offenders.push(`${code}: not in the source register`);
    else if (!s.enabled) offenders.push(`${code}: disabled`);
    else if (!s.licence_name?.trim()) offenders.push(`${code}: no licence`);
    else if (!s.credit?.trim()) offenders.push(`${code}: no credit`);
  }
  const restricted = checks.sourcesUsed
    .filter((c) => byCode.get(c)?.usage_restriction)
    .map((c) => `${c} (${byCode.get(c)!.usage_restriction})`);
  const unverified = checks.sourcesUsed.filter((c) => byCode.get(c) && byCode.get(c)!.verified_on === null).length;
  return result(
    'sources_licensed',
    offenders,
    [],
    `${checks.sourcesUsed.length} sources used, each with a licence and credit; ${unverified} not verified${restricted.length ? `; restrictions carried to the figures: ${restricted.join(', ')}` : ''}`,
  );
}

/** The products the reproducibility gate recomputes: ~5% (at least 3), chosen by the seed. */
export function sampleProducts(slugs: readonly string[], seed: number): string[] {
  const k = Math.min(slugs.length, Math.max(3, Math.ceil(slugs.length * 0.05)));
  return [...slugs]
    .sort((a, b) => hashKey(`${seed}|${a}`) - hashKey(`${seed}|${b}`) || (a < b ? -1 : 1))
    .slice(0, k)
    .sort();
}

/** The sample recomputed alone with the same seed gives exactly the full run's rows for it. */
export function gateReproducible(
  full: RunRows,
  sample: RunRows,
  products: readonly string[],
  seed: number,
): GateResult {
  const inSample = new Set(products);
  const pick: Record<string, (r: never) => boolean> = {
    products: (r: { product: string }) => inSample.has(r.product),
    figures: (r: { subject_type: string; subject_key: string }) =>
      r.subject_type === 'product' && inSample.has(r.subject_key),
    contributions: (r: { product: string }) => inSample.has(r.product),
    quantities: (r: { product: string }) => inSample.has(r.product),
    draws: (r: { subject_type: string; subject_key: string }) =>
      r.subject_type === 'product' && inSample.has(r.subject_key),
    sources: (r: { subject: string }) => r.subject.startsWith('product:') && inSample.has(r.subject.slice(8)),
  };
  const offenders: string[] = [];
  let compared = 0;
  for (const [table, keep] of Object.entries(pick) as Array<[keyof RunRows, (r: never) => boolean]>) {
    const a = serializeRows(table, (full[table] as never[]).filter(keep)).split('\n');
    const b = serializeRows(table, (sample[table] as never[]).filter(keep)).split('\n');
    compared += a.length;
    if (a.length !== b.length) offenders.push(`${table}: ${a.length} rows in the run, ${b.length} recomputed`);
    else a.forEach((line, i) => line !== b[i] && offenders.push(`${table} row ${i + 1} differs`));
  }
  return result(
    'reproducible',
    offenders,
    [],
    `recomputed ${products.length} products alone with seed ${seed} (${products.join(', ')}): ${compared} rows identical`,
  );
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toPrecision(6) : String(x);
}
