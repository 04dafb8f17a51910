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
import { addByCode, addMean, combine, pack, weakest, type Basis } from './basis.ts';
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
  /** perKg split by the packed bases of its inputs (lib/impact/basis.ts) */
  byBasis: Map<number, Float64Array>;
  /**
   * The same split per country, channel and conflict, for the reach totals: only the mean of each part
   * times world production (what a reach's provenance shares need), not its draws, so that 200
   * materials × their countries × their codes do not each hold an array of draws.
   */
  subjectBasis: Map<string, Map<number, number>>;
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
    // A quantity the source withholds (or has none of) is unknown: the country carries no harm.
    for (const c of p?.countries ?? []) {
      if (c.qty === null) continue;
      const kg = lognormalFactors(seed, `prod|${m.slug}|${p!.year}|${c.iso3}`, n, qualityGsd(u, c.quality));
      const k = c.qty * (KG_PER[p!.unit] ?? 1);
      for (let d = 0; d < n; d++) kg[d]! *= k;
      byCountry.set(c.iso3, kg);
    }
    prod.set(m.slug, byCountry);
  }

  // Denominator of the value shares: (sector, country) → EUR per draw, and the weakest basis of what
  // it adds up (every material's production and price there, and the sector's other output).
  const denominators = new Map<string, Float64Array>();
  const denominatorBasis = new Map<string, Basis>();
  for (const m of reg.materials) {
    const p = records.get(m.slug);
    for (const [iso3, kg] of prod.get(m.slug)!) {
      const key = `${m.sector}|${iso3}`;
      let den = denominators.get(key);
      if (!den) {
        den = new Float64Array(n);
        const other = reg.other_output.find((o) => o.sector === m.sector && o.iso3 === iso3);
        if (other) den.fill(other.value_eur);
        denominators.set(key, den);
        denominatorBasis.set(key, other ? (other.basis ?? 'illustrative') : 'published');
      }
      const pr = price.get(m.slug)!;
      for (let d = 0; d < n; d++) den[d]! += kg[d]! * pr[d]!;
      const c = p!.countries.find((x) => x.iso3 === iso3)!;
      denominatorBasis.set(
        key,
        [c.basis, m.price_basis].reduce<Basis>((a, b) => weakest(a, b ?? 'illustrative'), denominatorBasis.get(key)!),
      );
    }
  }

  for (const m of reg.materials)
    out.set(
      m.slug,
      intensityOf(
        m,
        records.get(m.slug)!,
        prod.get(m.slug)!,
        price.get(m.slug)!,
        { values: denominators, basis: denominatorBasis },
        harm,
        reg,
        n,
      ),
    );
  return out;
}

function intensityOf(
  m: Material,
  p: Production | null,
  prodByCountry: Map<string, Float64Array>,
  pr: Float64Array,
  denominators: { values: Map<string, Float64Array>; basis: Map<string, Basis> },
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
    sources: new Set([m.price_source, ...(m.also_sources ?? [])]),
    byBasis: new Map(),
    subjectBasis: new Map(),
  };
  if (!p) return result;
  result.sources.add(p.source);
  const unitKg = KG_PER[p.unit] ?? 1;
  const listedCentral = p.countries.reduce((a, c) => a + (c.qty ?? 0), 0);
  const restKg = Math.max(0, (p.world_total ?? 0) - listedCentral) * unitKg;
  for (const c of p.countries) result.sources.add(c.source);
  for (let d = 0; d < n; d++) result.worldKg[d] = restKg;
  for (const kg of prodByCountry.values()) for (let d = 0; d < n; d++) result.worldKg[d]! += kg[d]!;
  const other = reg.other_output.filter((o) => o.sector === m.sector);
  for (const o of other) if (prodByCountry.has(o.iso3)) result.sources.add(o.source);

  // The world total (the denominator of every country's share) is the record's own basis.
  const worldBasis = p.basis ?? 'illustrative';
  const v = new Float64Array(n);
  for (const [iso3, kg] of prodByCountry) {
    const key = `${m.sector}|${iso3}`;
    const den = denominators.values.get(key)!;
    const share = new Float64Array(n);
    // value share per world kg (a country that produced none has no share: 0, not 0/0)
    for (let d = 0; d < n; d++) share[d] = den[d]! > 0 ? (kg[d]! * pr[d]!) / den[d]! / result.worldKg[d]! : 0;
    const own = p.countries.find((c) => c.iso3 === iso3)!;
    const materialsBasis = [own.basis, m.price_basis, worldBasis].reduce<Basis>(
      (a, b) => weakest(a, b ?? 'illustrative'),
      denominators.basis.get(key)!,
    );
    const materialsCode = pack({ materials: materialsBasis });
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
      for (const part of sh.parts.values()) {
        const code = combine(part.code, materialsCode);
        let reach = 0;
        for (let d = 0; d < n; d++) {
          v[d] = part.draws[d]! * share[d]!;
          reach += v[d]! * result.worldKg[d]!;
        }
        addByCode(result.byBasis, code, v);
        for (const subject of [
          `country|${iso3}`,
          `channel|${channel.code}`,
          ...(part.conflict ? [`conflict|${part.conflict}`] : []),
        ])
          addMean(getOrAddMap(result.subjectBasis, subject), code, reach / n);
      }
    }
  }
  return result;
}

function getOrAddMap<K, V>(map: Map<K, Map<number, V>>, key: K): Map<number, V> {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map()));
  return m;
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
  /** perEur split by the packed bases of its inputs; per country, channel and conflict the means per EUR */
  byBasis: Map<number, Float64Array>;
  subjectBasis: Map<string, Map<number, number>>;
}

export function armsIntensity(reg: Register, harm: HarmResult, n: number): ArmsIntensity | null {
  let outputEur = 0;
  for (const r of reg.mrio.regions) outputEur += (reg.mrio.output[r]?.ARMS ?? 0) * 1e6;
  const parts = [...harm.sectorHarm.values()].filter((s) => s.sector === 'ARMS' && s.channel === 'C1');
  if (parts.length === 0 || outputEur <= 0) return null;
  const result: ArmsIntensity = {
    perEur: new Float64Array(n),
    byCountry: new Map(),
    byConflict: new Map(),
    byBasis: new Map(),
    subjectBasis: new Map(),
  };
  // World arms output (the denominator) comes from the input-output table.
  const outputCode = pack({ materials: reg.mrio.basis ?? 'illustrative' });
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
    for (const part of s.parts.values()) {
      const code = combine(part.code, outputCode);
      addByCode(result.byBasis, code, part.draws, 1 / outputEur);
      let mean = 0;
      for (let d = 0; d < n; d++) mean += part.draws[d]! / outputEur;
      for (const subject of [
        `country|${s.iso3}`,
        'channel|C1',
        ...(part.conflict ? [`conflict|${part.conflict}`] : []),
      ])
        addMean(getOrAddMap(result.subjectBasis, subject), code, mean / n);
    }
  }
  return result;
}
