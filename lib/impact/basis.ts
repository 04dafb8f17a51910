/**
 * What a value rests on (methodology v2 §2): every register input row has a basis, and every figure
 * says how much of its value rests on each. The four bases, strongest first:
 *  - published: read from a published file as it stands (a unit conversion stated);
 *  - derived: computed from published values by a stated formula (a currency conversion, a sum);
 *  - assumption: authored, with its written rationale (no open source gives it);
 *  - illustrative: an authored placeholder standing for data no open source gives (the demo).
 *
 * A figure is a sum of paths (harm counted × share × value share ÷ world production × bill of materials);
 * a path rests on the weakest basis among its inputs. The engine tracks, per path, the basis of each of
 * the four kinds of input separately, packed in one small integer (two bits per kind), so that the
 * same draws give the figure's split by its weakest input (`basis`) and by each kind (`basis_counts` …).
 * Pure.
 */

export const BASES = ['published', 'derived', 'assumption', 'illustrative'] as const;
export type Basis = (typeof BASES)[number];

/** The kinds of input a path multiplies, in their bit order. */
export const INPUT_KINDS = ['counts', 'attribution', 'materials', 'bom'] as const;
export type InputKind = (typeof INPUT_KINDS)[number];

export const BASIS_LABELS: Record<Basis, string> = {
  published: 'published data',
  derived: 'derived from published data by a stated formula',
  assumption: 'documented assumptions',
  illustrative: 'illustrative values',
};

export const rankOf = (b: Basis | null | undefined): number => (b ? BASES.indexOf(b) : BASES.length - 1);
export const weakest = (a: Basis, b: Basis): Basis => BASES[Math.max(rankOf(a), rankOf(b))]!;

/** A path's bases packed: two bits per kind (counts lowest). */
export function pack(parts: Partial<Record<InputKind, Basis | null | undefined>>): number {
  let code = 0;
  INPUT_KINDS.forEach((k, i) => {
    code |= (parts[k] === undefined ? 0 : rankOf(parts[k])) << (2 * i);
  });
  return code;
}

/** Two paths multiplied: each kind at the weaker of the two. */
export function combine(a: number, b: number): number {
  let code = 0;
  for (let i = 0; i < INPUT_KINDS.length; i++) {
    const shift = 2 * i;
    code |= Math.max((a >> shift) & 3, (b >> shift) & 3) << shift;
  }
  return code;
}

export function kindBasis(code: number, kind: InputKind): Basis {
  return BASES[(code >> (2 * INPUT_KINDS.indexOf(kind))) & 3]!;
}

/** The weakest basis of a path over all its kinds. */
export function overall(code: number): Basis {
  let r = 0;
  for (let i = 0; i < INPUT_KINDS.length; i++) r = Math.max(r, (code >> (2 * i)) & 3);
  return BASES[r]!;
}

/** Shares of a figure's value by basis; null when nothing was attributed (no value to share). */
export type Provenance = Record<Basis, number>;

/** Adds draws into a map keyed by packed code. */
export function addByCode(map: Map<number, Float64Array>, code: number, values: Float64Array, scale = 1): void {
  let acc = map.get(code);
  if (!acc) map.set(code, (acc = new Float64Array(values.length)));
  for (let d = 0; d < values.length; d++) acc[d]! += values[d]! * scale;
}

const mean = (a: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]!;
  return a.length ? s / a.length : 0;
};

/** The split of a figure by its weakest input (key: basis) or by one kind, as draws. */
export function groupBy(map: Map<number, Float64Array>, kind: InputKind | 'overall'): Map<Basis, Float64Array> {
  const out = new Map<Basis, Float64Array>();
  for (const [code, draws] of map) {
    const b = kind === 'overall' ? overall(code) : kindBasis(code, kind);
    let acc = out.get(b);
    if (!acc) out.set(b, (acc = new Float64Array(draws.length)));
    for (let d = 0; d < draws.length; d++) acc[d]! += draws[d]!;
  }
  return out;
}

/** Shares of the mean by weakest basis; null when the total mean is 0. */
export function provenanceOf(map: Map<number, Float64Array>): Provenance | null {
  const by = groupBy(map, 'overall');
  let total = 0;
  const means = new Map<Basis, number>();
  for (const [b, draws] of by) {
    const m = mean(draws);
    means.set(b, m);
    total += m;
  }
  if (!(total > 0)) return null;
  return Object.fromEntries(BASES.map((b) => [b, (means.get(b) ?? 0) / total])) as Provenance;
}

/** Adds a mean (a scalar) under a packed code: the reach totals keep means, not draws (v3: memory). */
export function addMean(map: Map<number, number>, code: number, mean: number): void {
  map.set(code, (map.get(code) ?? 0) + mean);
}

/** Shares by weakest basis of means kept per packed code; null when the total is 0. */
export function provenanceOfMeans(map: ReadonlyMap<number, number>): Provenance | null {
  const means = new Map<Basis, number>();
  let total = 0;
  for (const [code, m] of map) {
    const b = overall(code);
    means.set(b, (means.get(b) ?? 0) + m);
    total += m;
  }
  if (!(total > 0)) return null;
  return Object.fromEntries(BASES.map((b) => [b, (means.get(b) ?? 0) / total])) as Provenance;
}

/** A provenance that rests wholly on one basis (a route whose every path has it). */
export function wholly(b: Basis): Provenance {
  return Object.fromEntries(BASES.map((x) => [x, x === b ? 1 : 0])) as Provenance;
}

/** The part of a value resting on inputs that were not measured (assumed or illustrative). */
export const unmeasured = (p: Provenance): number => p.assumption + p.illustrative;

/**
 * The rule that ties the grade to provenance: a figure resting mostly (more than half its value) on
 * assumed or illustrative inputs is at best MODERATE. (The demo, wholly illustrative, was already
 * capped there by its run; the rule is now per figure.)
 */
export function provenanceCap(p: Provenance | null): 'ROBUST' | 'MODERATE' {
  return p !== null && unmeasured(p) > 0.5 ? 'MODERATE' : 'ROBUST';
}

/** The sentence a figure's provenance reads as, largest part first. */
export function provenanceSummary(p: Provenance): string {
  const parts = BASES.filter((b) => p[b] > 0)
    .sort((a, b) => p[b] - p[a])
    .map((b) => `${formatShare(p[b])} on ${BASIS_LABELS[b]}`);
  const lead =
    unmeasured(p) > 0.5
      ? 'Rests mostly on inputs that were not measured: '
      : 'Rests mostly on published data and values derived from it: ';
  return `${lead}${parts.join(', ')}.`;
}

function formatShare(x: number): string {
  const pct = x * 100;
  if (pct > 0 && pct < 1) return '<1%';
  if (pct < 100 && pct > 99) return '>99%';
  return `${Math.round(pct)}%`;
}
