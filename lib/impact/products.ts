/**
 * Stage 3 of the material route (methodology v1 §4): a product's harm per unit is the sum over its
 * bill of materials of quantity × (1 + loss factor) × the component's harm per unit (per kg for a
 * material, per unit for a semi-finished product, recursively). Each line's quantity is drawn around
 * its stated value (lognormal, spread by the line's confidence).
 *
 * A product is reduced to primitive quantities per draw: kg of each material (Q) and EUR of arms
 * manufacture (E, scenario S-ARMS). Every breakdown is then a sum of Q × the material's per-kg
 * breakdown, so each one adds up to the same headline.
 */
import { addByCode, combine, pack, type InputKind } from './basis.ts';
import { unitFactor } from './bom.ts';
import type { ArmsIntensity, MaterialIntensity } from './materials.ts';
import { getOrAdd } from './materials.ts';
import { lognormalFactors } from './random.ts';
import type { Uncertainty } from './scenario.ts';
import type { BomLine, Product } from './types.ts';

export interface ProductDraws {
  slug: string;
  /** kg of each material per unit, per draw */
  Q: Map<string, Float64Array>;
  /** EUR of arms manufacture per unit, per draw (null when none) */
  E: Float64Array | null;
  total: Float64Array;
  /** explain stage 1: each bill-of-materials line's contribution ('manufacture' = arms value added) */
  lines: Map<string, Float64Array>;
  /** Q split by the weakest basis of the bill-of-materials lines it went through (packed, bom bits) */
  Qb: Map<string, Map<number, Float64Array>>;
  /** the bom basis of E (arms manufacture rests on the product's price) */
  Ecode: number;
}

export interface ProductContext {
  seed: number;
  n: number;
  uncertainty: Uncertainty;
  lines: Map<string, BomLine[]>;
  products: Map<string, Product>;
  materials: Map<string, MaterialIntensity>;
  arms: ArmsIntensity | null;
  /** products already computed (components), by slug */
  done: Map<string, ProductDraws>;
}

/**
 * Multipliers of one bill-of-materials line: the same in every metric and every scenario. A line whose
 * cited sources give a range is drawn around its quantity with the range read as a 90% interval;
 * otherwise the spread follows the line's confidence.
 */
export function lineFactors(seed: number, line: BomLine, n: number, u: Uncertainty): Float64Array {
  const lo = line.qty_low ?? null;
  const hi = line.qty_high ?? null;
  const gsd =
    u.bomRange && lo !== null && hi !== null && lo > 0 && hi > lo
      ? Math.pow(hi / lo, 1 / (2 * 1.645))
      : u.bomGsd[line.confidence];
  return lognormalFactors(seed, `bom|${line.product}|${line.line}`, n, gsd);
}

export function computeProduct(p: Product, ctx: ProductContext): ProductDraws {
  const { n } = ctx;
  const Q = new Map<string, Float64Array>();
  const Qb = new Map<string, Map<number, Float64Array>>();
  const lines = new Map<string, Float64Array>();
  let E: Float64Array | null = null;
  let armsComponentsEur = 0;
  for (const line of ctx.lines.get(p.slug) ?? []) {
    const value = new Float64Array(n);
    lines.set(String(line.line), value);
    if (line.component_type === 'unmodelled') continue;
    const component = line.component_type === 'product' ? ctx.products.get(line.component_key!)! : null;
    const k = line.qty * (1 + line.loss_factor) * unitFactor(line, component ? component.unit : null)!;
    const f = lineFactors(ctx.seed, line, n, ctx.uncertainty);
    const lineCode = pack({ bom: line.basis });
    if (component) {
      const c = ctx.done.get(component.slug);
      if (!c) throw new Error(`component ${component.slug} of ${p.slug} computed after it`);
      for (const [m, q] of c.Q) {
        const acc = getOrAdd(Q, m, n);
        for (let d = 0; d < n; d++) acc[d]! += f[d]! * k * q[d]!;
      }
      const scaled = new Float64Array(n);
      for (const [m, byCode] of c.Qb) {
        for (const [code, q] of byCode) {
          for (let d = 0; d < n; d++) scaled[d] = f[d]! * k * q[d]!;
          addByCode(getOrAddCodes(Qb, m), combine(code, lineCode), scaled);
        }
      }
      if (c.E) {
        E ??= new Float64Array(n);
        for (let d = 0; d < n; d++) E[d]! += f[d]! * k * c.E[d]!;
      }
      if (component.is_arms) armsComponentsEur += k * component.price_eur;
      for (let d = 0; d < n; d++) value[d] = f[d]! * k * c.total[d]!;
    } else {
      const m = line.component_key!;
      const acc = getOrAdd(Q, m, n);
      const perKg = ctx.materials.get(m)!.perKg;
      const kg = new Float64Array(n);
      for (let d = 0; d < n; d++) {
        kg[d] = f[d]! * k;
        acc[d]! += kg[d]!;
        value[d] = f[d]! * k * perKg[d]!;
      }
      addByCode(getOrAddCodes(Qb, m), lineCode, kg);
    }
  }
  // Arms manufacture: the value this stage adds to an arms product (its price less the arms
  // components it buys, which carry their own), charged at the harm per EUR of arms output.
  if (p.is_arms && ctx.arms) {
    const own = Math.max(0, p.price_eur - armsComponentsEur);
    E ??= new Float64Array(n);
    const manufacture = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      E[d]! += own;
      manufacture[d] = own * ctx.arms.perEur[d]!;
    }
    lines.set('manufacture', manufacture);
  }
  const total = new Float64Array(n);
  for (const [m, q] of Q) {
    const perKg = ctx.materials.get(m)!.perKg;
    for (let d = 0; d < n; d++) total[d]! += q[d]! * perKg[d]!;
  }
  if (E && ctx.arms) for (let d = 0; d < n; d++) total[d]! += E[d]! * ctx.arms.perEur[d]!;
  return { slug: p.slug, Q, E: E && ctx.arms ? E : null, total, lines, Qb, Ecode: pack({ bom: p.price_basis }) };
}

function getOrAddCodes(map: Map<string, Map<number, Float64Array>>, key: string): Map<number, Float64Array> {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map()));
  return m;
}

/** The per-unit draws split by the packed bases of every path (bill of materials × material × harm). */
export function basisSplit(pd: ProductDraws, ctx: ProductContext): Map<number, Float64Array> {
  const { n } = ctx;
  const out = new Map<number, Float64Array>();
  const v = new Float64Array(n);
  for (const [m, byCode] of pd.Qb) {
    const mi = ctx.materials.get(m)!;
    for (const [bomCode, q] of byCode) {
      for (const [matCode, a] of mi.byBasis) {
        for (let d = 0; d < n; d++) v[d] = q[d]! * a[d]!;
        addByCode(out, combine(bomCode, matCode), v);
      }
    }
  }
  if (pd.E && ctx.arms) {
    for (const [code, a] of ctx.arms.byBasis) {
      for (let d = 0; d < n; d++) v[d] = pd.E[d]! * a[d]!;
      addByCode(out, combine(code, pd.Ecode), v);
    }
  }
  return out;
}

/** Breakdown dimensions of provenance: by the weakest input, and by each kind of input. */
export const BASIS_DIMENSIONS: ReadonlyArray<[string, InputKind | 'overall']> = [
  ['basis', 'overall'],
  ['basis_counts', 'counts'],
  ['basis_attribution', 'attribution'],
  ['basis_materials', 'materials'],
  ['basis_bom', 'bom'],
];

export type Dimension = 'material' | 'country' | 'conflict' | 'channel' | 'sector';

/** The breakdowns of a product's per-unit draws by material, country, conflict, channel and sector. */
export function breakdowns(
  pd: ProductDraws,
  ctx: ProductContext,
  sectorOf: Map<string, string>,
): Map<Dimension, Map<string, Float64Array>> {
  const { n } = ctx;
  const dims = new Map<Dimension, Map<string, Float64Array>>([
    ['material', new Map()],
    ['country', new Map()],
    ['conflict', new Map()],
    ['channel', new Map()],
    ['sector', new Map()],
  ]);
  const none = new Float64Array(n);
  for (const [m, q] of pd.Q) {
    const mi = ctx.materials.get(m)!;
    const mat = getOrAdd(dims.get('material')!, m, n);
    const sec = getOrAdd(dims.get('sector')!, sectorOf.get(m)!, n);
    for (let d = 0; d < n; d++) {
      const v = q[d]! * mi.perKg[d]!;
      mat[d]! += v;
      sec[d]! += v;
    }
    for (const [iso3, a] of mi.byCountry) addScaled(getOrAdd(dims.get('country')!, iso3, n), q, a, n);
    for (const [k, a] of mi.byConflict) addScaled(getOrAdd(dims.get('conflict')!, k, n), q, a, n);
    for (const [c, a] of mi.byChannel) {
      addScaled(getOrAdd(dims.get('channel')!, c, n), q, a, n);
      if (c !== 'C1') addScaled(none, q, a, n);
    }
  }
  if (pd.E && ctx.arms) {
    const arms = ctx.arms;
    addScaled(getOrAdd(dims.get('material')!, 'none', n), pd.E, arms.perEur, n);
    addScaled(getOrAdd(dims.get('sector')!, 'ARMS', n), pd.E, arms.perEur, n);
    addScaled(getOrAdd(dims.get('channel')!, 'C1', n), pd.E, arms.perEur, n);
    for (const [iso3, a] of arms.byCountry) addScaled(getOrAdd(dims.get('country')!, iso3, n), pd.E, a, n);
    for (const [k, a] of arms.byConflict) addScaled(getOrAdd(dims.get('conflict')!, k, n), pd.E, a, n);
  }
  if (pd.Q.size > 0) dims.get('conflict')!.set('none', none);
  return dims;
}

function addScaled(acc: Float64Array, q: Float64Array, a: Float64Array, n: number) {
  for (let d = 0; d < n; d++) acc[d]! += q[d]! * a[d]!;
}
