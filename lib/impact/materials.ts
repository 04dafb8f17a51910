/**
 * Stage 2 of the material route (methodology v1 §3): a sector's attributed harm in a country is
 * shared between the materials of that sector produced there in proportion to production value
 * (tonnes × price), next to the sector's other output the register records; a material's harm is then
 * divided by world production, giving harm per kg of the world-average supply. Rest-of-world output
 * (world total minus the listed countries) dilutes the figure and carries no harm: a floor.
 *
 * For every draw it gives, per material, the harm per kg in total and by country, channel and
 * conflict, and world production (kg) to turn them back into totals for reach.
 */
import type { HarmResult } from './harm.ts';
import { lognormalFactors } from './random.ts';
import { qualityGsd, type ScenarioParams, type Uncertainty } from './scenario.ts';
import type { Material, Production, Register } from './types.ts';

const KG_PER: Record<string, number> = { t: 1000, kg: 1 };

export interface MaterialIntensity {
  slug: string;
  /** harm per kg, per draw */
  perKg: Float64Array;
  byCountry: Map<string, Float64Array>;
  byChannel: Map<string, Float64Array>;
  /** C1 by conflict; the rest of perKg is 'none' */
  byConflict: Map<string, Float64Array>;
  /** world production in kg, per draw */
  worldKg: Float64Array;
  /** production year used, null when the register has none up to the scenario's last year */
  year: number | null;
  sources: Set<string>;
}

/** The production record a scenario uses: the latest year not after its window's end. */
export function productionFor(reg: Register, material: string, params: ScenarioParams): Production | null {
  let best: Production | null = null;
  for (const p of reg.production) {
    if (p.material === material && p.year <= params.years[1] && (!best || p.year > best.year)) best = p;
  }
  return best;
}

export function materialIntensities(
  reg: Register,
  params: ScenarioParams,
  harm: HarmResult,
  seed: number,
  n: number,
  u: Uncertainty,
): Map<string, MaterialIntensity> {
  const out = new Map<string, MaterialIntensity>();
  const price = new Map<string, Float64Array>();
  const prod = new Map<string, Map<string, Float64Array>>(); // material → iso3 → kg per draw
  const records = new Map<string, Production | null>();

  for (const m of reg.materials) {
    const p = productionFor(reg, m.slug, params);
    records.set(m.slug, p);
    const pr = lognormalFactors(seed, `price|${m.slug}`, n, u.priceGsd);
    for (let d = 0; d < n; d++) pr[d]! *= m.price_eur_per_kg;
    price.set(m.slug, pr);
    const byCountry = new Map<string, Float64Array>();
    for (const c of p?.countries ?? []) {
      const kg = lognormalFactors(seed, `prod|${m.slug}|${p!.year}|${c.iso3}`, n, qualityGsd(u, c.quality));
      const k = c.qty * (KG_PER[p!.unit] ?? 1);
      for (let d = 0; d < n; d++) kg[d]! *= k;
      byCountry.set(c.iso3, kg);
    }
    prod.set(m.slug, byCountry);
  }

  // Denominator of the value shares: (sector, country) → EUR per draw.
  const denominators = new Map<string, Float64Array>();
  for (const m of reg.materials) {
    for (const [iso3, kg] of prod.get(m.slug)!) {
      const key = `${m.sector}|${iso3}`;
      let den = denominators.get(key);
      if (!den) {
        den = new Float64Array(n);
        const other = reg.other_output.find((o) => o.sector === m.sector && o.iso3 === iso3);
        if (other) den.fill(other.value_eur);
        denominators.set(key, den);
      }
      const pr = price.get(m.slug)!;
      for (let d = 0; d < n; d++) den[d]! += kg[d]! * pr[d]!;
    }
  }

  for (const m of reg.materials)
    out.set(
      m.slug,
      intensityOf(m, records.get(m.slug)!, prod.get(m.slug)!, price.get(m.slug)!, denominators, harm, reg, n),
    );
  return out;
}

function intensityOf(
  m: Material,
  p: Production | null,
  prodByCountry: Map<string, Float64Array>,
  pr: Float64Array,
  denominators: Map<string, Float64Array>,
  harm: HarmResult,
  reg: Register,
  n: number,
): MaterialIntensity {
  const result: MaterialIntensity = {
    slug: m.slug,
    perKg: new Float64Array(n),
    byCountry: new Map(),
    byChannel: new Map(),
    byConflict: new Map(),
    worldKg: new Float64Array(n),
    year: p?.year ?? null,
    sources: new Set([m.price_source]),
  };
  if (!p) return result;
  result.sources.add(p.source);
  const unitKg = KG_PER[p.unit] ?? 1;
  const listedCentral = p.countries.reduce((a, c) => a + c.qty, 0);
  const restKg = Math.max(0, (p.world_total ?? 0) - listedCentral) * unitKg;
  for (const c of p.countries) result.sources.add(c.source);
  for (let d = 0; d < n; d++) result.worldKg[d] = restKg;
  for (const kg of prodByCountry.values()) for (let d = 0; d < n; d++) result.worldKg[d]! += kg[d]!;
  const other = reg.other_output.filter((o) => o.sector === m.sector);
  for (const o of other) if (prodByCountry.has(o.iso3)) result.sources.add(o.source);

  for (const [iso3, kg] of prodByCountry) {
    const den = denominators.get(`${m.sector}|${iso3}`)!;
    const share = new Float64Array(n);
    for (let d = 0; d < n; d++) share[d] = (kg[d]! * pr[d]!) / den[d]! / result.worldKg[d]!; // value share per world kg
    for (const channel of reg.channels) {
      const sh = harm.sectorHarm.get(`${channel.code}|${iso3}|${m.sector}`);
      if (!sh) continue;
      sh.sources.forEach((src) => result.sources.add(src));
      const byCountry = getOrAdd(result.byCountry, iso3, n);
      const byChannel = getOrAdd(result.byChannel, channel.code, n);
      for (let d = 0; d < n; d++) {
        const v = sh.total[d]! * share[d]!;
        result.perKg[d]! += v;
        byCountry[d]! += v;
        byChannel[d]! += v;
      }
      for (const [conflict, part] of sh.byConflict) {
        const byConflict = getOrAdd(result.byConflict, conflict, n);
        for (let d = 0; d < n; d++) byConflict[d]! += part[d]! * share[d]!;
      }
    }
  }
  return result;
}

export function getOrAdd(map: Map<string, Float64Array>, key: string, n: number): Float64Array {
  let a = map.get(key);
  if (!a) map.set(key, (a = new Float64Array(n)));
  return a;
}

/**
 * Harm per EUR of arms output (scenario S-ARMS): the ARMS sector's attributed conflict deaths,
 * wherever they happened, over world arms output by value (the input-output table's ARMS output).
 */
export interface ArmsIntensity {
  perEur: Float64Array;
  byCountry: Map<string, Float64Array>;
  byConflict: Map<string, Float64Array>;
}

export function armsIntensity(reg: Register, harm: HarmResult, n: number): ArmsIntensity | null {
  let outputEur = 0;
  for (const r of reg.mrio.regions) outputEur += (reg.mrio.output[r]?.ARMS ?? 0) * 1e6;
  const parts = [...harm.sectorHarm.values()].filter((s) => s.sector === 'ARMS' && s.channel === 'C1');
  if (parts.length === 0 || outputEur <= 0) return null;
  const result: ArmsIntensity = { perEur: new Float64Array(n), byCountry: new Map(), byConflict: new Map() };
  for (const s of parts) {
    const byCountry = getOrAdd(result.byCountry, s.iso3, n);
    for (let d = 0; d < n; d++) {
      const v = s.total[d]! / outputEur;
      result.perEur[d]! += v;
      byCountry[d]! += v;
    }
    for (const [conflict, part] of s.byConflict) {
      const byConflict = getOrAdd(result.byConflict, conflict, n);
      for (let d = 0; d < n; d++) byConflict[d]! += part[d]! / outputEur;
    }
  }
  return result;
}
