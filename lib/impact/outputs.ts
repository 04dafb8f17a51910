/**
 * Rows a run writes besides the products': materials' harm per kg, the reach of each material,
 * conflict, country and channel, spend per EUR by COICOP code, and each product's nearest
 * neighbours by harm per kg. Pure.
 */
import { addMean, provenanceCap, provenanceOf, provenanceOfMeans, type Provenance } from './basis.ts';
import { worse, type Grade } from './figure.ts';
import type { HarmResult } from './harm.ts';
import type { ArmsIntensity, MaterialIntensity } from './materials.ts';
import { footprint, madeIn, spendVector, type Intensities, type MrioModel } from './mrio.ts';
import {
  NO_PROVENANCE,
  provColumns,
  statColumns,
  type ContributionRow,
  type FigureRow,
  type NearestRow,
  type ReachRow,
  type SpendLeftOutRow,
  type SpendRow,
} from './rows.ts';
import type { Metric, Register } from './types.ts';

/**
 * Products listed per subject in its reach, largest contribution PER KG of product first (issue 14: per
 * unit put a MW beside a kg); products with no unit mass after them, by name.
 */
export const REACH_PRODUCTS = 50;
export const NEAREST = 5;

function capOf(reg: Register): Grade {
  return reg.illustrative ? 'MODERATE' : 'ROBUST';
}

export function materialRows(
  reg: Register,
  mats: Map<string, MaterialIntensity>,
  metric: Metric,
  scratch: Float64Array,
): FigureRow[] {
  return reg.materials.map((m) => {
    const mi = mats.get(m.slug)!;
    const provenance = provenanceOf(mi.byBasis);
    return {
      subject_type: 'material' as const,
      subject_key: m.slug,
      metric,
      basis: 'per_kg' as const,
      route: 'material' as const,
      ...statColumns(mi.perKg, worse(capOf(reg), provenanceCap(provenance)), scratch),
      ...provColumns(provenance),
    };
  });
}

export function reachRows(
  reg: Register,
  harm: HarmResult,
  mats: Map<string, MaterialIntensity>,
  arms: ArmsIntensity | null,
  contributions: ContributionRow[],
  metric: Metric,
  scratch: Float64Array,
): ReachRow[] {
  const n = scratch.length;
  const armsEur = reg.mrio.regions.reduce((a, r) => a + (reg.mrio.output[r]?.ARMS ?? 0) * 1e6, 0);
  const byDim = new Map<string, ContributionRow[]>();
  for (const c of contributions) {
    if (c.metric !== metric || c.route !== 'material') continue;
    const k = `${c.dimension}|${c.key}`;
    (byDim.get(k) ?? byDim.set(k, []).get(k)!).push(c);
  }
  const totals = new Map<string, Float64Array>();
  const scaled = new Float64Array(n);
  const scale = (perKg: Float64Array, by: Float64Array | number) => {
    for (let d = 0; d < n; d++) scaled[d] = perKg[d]! * (typeof by === 'number' ? by : by[d]!);
    return scaled;
  };
  const add = (key: string, perKg: Float64Array, by: Float64Array | number) => {
    let t = totals.get(key);
    if (!t) totals.set(key, (t = new Float64Array(n)));
    const v = scale(perKg, by);
    for (let d = 0; d < n; d++) t[d]! += v[d]!;
  };
  // The same totals split by the bases of their inputs: each subject's provenance.
  const byBasis = new Map<string, Map<number, number>>();
  const basisOf = (key: string) => byBasis.get(key) ?? byBasis.set(key, new Map()).get(key)!;
  const addBasis = (key: string, split: Map<number, Float64Array>, by: Float64Array) => {
    const m = basisOf(key);
    for (const [code, a] of split) {
      let mean = 0;
      for (let d = 0; d < n; d++) mean += a[d]! * by[d]!;
      addMean(m, code, mean / n);
    }
  };
  const addMeans = (key: string, split: Map<number, number>, by: number) => {
    const m = basisOf(key);
    for (const [code, mean] of split) addMean(m, code, mean * by);
  };
  for (const [slug, mi] of mats) {
    add(`material|${slug}`, mi.perKg, mi.worldKg);
    for (const [iso3, a] of mi.byCountry) add(`country|${iso3}`, a, mi.worldKg);
    for (const [k, a] of mi.byConflict) add(`conflict|${k}`, a, mi.worldKg);
    for (const [c, a] of mi.byChannel) add(`channel|${c}`, a, mi.worldKg);
    addBasis(`material|${slug}`, mi.byBasis, mi.worldKg);
    for (const [subject, split] of mi.subjectBasis) addMeans(subject, split, 1);
  }
  if (arms) {
    for (const [iso3, a] of arms.byCountry) add(`country|${iso3}`, a, armsEur);
    for (const [k, a] of arms.byConflict) add(`conflict|${k}`, a, armsEur);
    add('channel|C1', arms.perEur, armsEur);
    for (const [subject, split] of arms.subjectBasis) addMeans(subject, split, armsEur);
  }
  const counted = (type: string, key: string): number | null => {
    if (type === 'conflict') return metric === 'deaths' ? (harm.conflictCounted.get(key) ?? 0) : null;
    if (type === 'material') return null;
    let sum = 0;
    for (const [k, v] of harm.counted) {
      const [c, iso3] = k.split('|');
      if ((type === 'country' && iso3 === key) || (type === 'channel' && c === key)) sum += v;
    }
    return sum;
  };
  const subjects: Array<[ReachRow['subject_type'], string]> = [
    ...reg.materials.map((m) => ['material', m.slug] as [ReachRow['subject_type'], string]),
    ...reg.conflicts.map((k) => ['conflict', k.slug] as [ReachRow['subject_type'], string]),
    ...reg.countries
      .filter((c) => totals.has(`country|${c.iso3}`) || [...harm.counted.keys()].some((k) => k.endsWith(`|${c.iso3}`)))
      .map((c) => ['country', c.iso3] as [ReachRow['subject_type'], string]),
    ...reg.channels.map((c) => ['channel', c.code] as [ReachRow['subject_type'], string]),
  ];
  const massKg = new Map(reg.products.map((p) => [p.slug, p.unit_mass_g === null ? null : p.unit_mass_g / 1000]));
  const perKg = (c: ContributionRow) => {
    const kg = massKg.get(c.product);
    return kg ? c.mean / kg : -Infinity;
  };
  const rows: ReachRow[] = [];
  for (const [type, key] of subjects) {
    const total = totals.get(`${type}|${key}`) ?? new Float64Array(n);
    const provenance = provenanceOfMeans(byBasis.get(`${type}|${key}`) ?? new Map());
    const s = statColumns(total, worse(capOf(reg), provenanceCap(provenance)), scratch);
    const cnt = counted(type, key);
    rows.push({
      subject_type: type,
      subject_key: key,
      metric,
      rank: 0,
      product: null,
      ...s,
      share: cnt ? s.mean / cnt : null,
      counted: cnt,
      ...provColumns(provenance),
    });
    const parts = (byDim.get(`${type}|${key}`) ?? [])
      .filter((c) => c.mean > 0)
      .sort((a, b) => perKg(b) - perKg(a) || (a.product < b.product ? -1 : 1))
      .slice(0, REACH_PRODUCTS);
    parts.forEach((c, i) =>
      rows.push({
        subject_type: type,
        subject_key: key,
        metric,
        rank: i + 1,
        product: c.product,
        low: c.low,
        median: c.median,
        high: c.high,
        mean: c.mean,
        central: c.central,
        grade: c.grade,
        share: c.share,
        counted: null,
        ...NO_PROVENANCE,
      }),
    );
  }
  return rows;
}

/** Harm per EUR spent on each COICOP code, and the reference row 'all' (the average household EUR). */
export function spendRows(
  reg: Register,
  model: MrioModel,
  S: Intensities,
  consumer: string,
  metric: Metric,
  route: { runCap: Grade; provenance: Provenance },
  scratch: Float64Array,
): SpendRow[] {
  const n = scratch.length;
  // Spend goes through the input-output table: every row rests on the table's basis.
  const figure = (draws: Float64Array) => {
    const s = statColumns(draws, route.runCap, scratch);
    const provenance = s.mean > 0 ? route.provenance : null;
    return {
      ...statColumns(draws, worse(route.runCap, provenanceCap(provenance)), scratch),
      ...provColumns(provenance),
    };
  };
  const rows: SpendRow[] = [];
  const reference = new Float64Array(n);
  let shares = 0;
  let refY: Float64Array | null = null;
  for (const code of [...reg.coicop].sort((a, b) => (a.code < b.code ? -1 : 1))) {
    const y = spendVector(model, code, consumer);
    const fp = footprint(model, S, y, 1, true);
    rows.push({
      consumer,
      code: code.code,
      metric,
      reference: 0,
      ...figure(fp.total),
      share_of_spend: code.share_of_spend,
      made_in_consumer: madeIn(model, y, consumer),
    });
    if (code.level === 'division' && code.share_of_spend !== null && code.share_of_spend > 0) {
      shares += code.share_of_spend;
      for (let d = 0; d < n; d++) reference[d]! += code.share_of_spend * fp.total[d]!;
      refY ??= new Float64Array(model.n);
      for (let i = 0; i < model.n; i++) refY[i]! += code.share_of_spend * y[i]!;
    }
  }
  if (shares > 0) {
    for (let d = 0; d < n; d++) reference[d]! /= shares;
    rows.push({
      consumer,
      code: 'all',
      metric,
      reference: 1,
      ...figure(reference),
      share_of_spend: 1,
      made_in_consumer: madeIn(model, refY!, consumer),
    });
  }
  return rows;
}

export function spendLeftOut(reg: Register, consumer: string): SpendLeftOutRow[] {
  const divisions = reg.coicop.filter((c) => c.level === 'division' && c.share_of_spend !== null);
  const total = divisions.reduce((a, c) => a + c.share_of_spend!, 0);
  const left = divisions.reduce(
    (a, c) => a + c.share_of_spend! * Math.max(0, 1 - c.bridge.reduce((s, b) => s + b.share, 0)),
    0,
  );
  const industries = [...new Set(reg.coicop.flatMap((c) => c.left_out.map((l) => l.industry)))].sort();
  return [
    {
      consumer,
      industries,
      share_of_spend: total > 0 ? left / total : null,
      why: 'The part of a purchase that is not production in the input-output table (taxes on products, imputed rents, transfers) carries no harm in v1. The register lists it per category.',
    },
  ];
}

/** For each product, the NEAREST others by deaths per kg (material route), on a log scale. */
export function nearestRows(figures: FigureRow[]): NearestRow[] {
  const sorted = figures
    .filter((f) => f.subject_type === 'product' && f.basis === 'per_kg' && f.metric === 'deaths')
    .map((f) => ({ slug: f.subject_key, v: Math.log(Math.max(f.mean, 0) + 1e-30) }))
    .sort((x, y) => x.v - y.v || (x.slug < y.slug ? -1 : 1));
  const rows: NearestRow[] = [];
  sorted.forEach((a, i) => {
    // walk outwards from a's place in the sorted list, taking the nearer side each time
    let lo = i - 1;
    let hi = i + 1;
    for (let rank = 1; rank <= NEAREST && (lo >= 0 || hi < sorted.length); rank++) {
      const takeLeft = hi >= sorted.length || (lo >= 0 && a.v - sorted[lo]!.v <= sorted[hi]!.v - a.v);
      const pick = takeLeft ? sorted[lo--]! : sorted[hi++]!;
      rows.push({ product: a.slug, rank, other: pick.slug });
    }
  });
  return rows.sort((x, y) => (x.product < y.product ? -1 : x.product > y.product ? 1 : x.rank - y.rank));
}
