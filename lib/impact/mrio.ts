/**
 * The input-output route (methodology v1 §5–6). Harm intensities S (harm per million EUR of output)
 * come from the same attributed sector harm as the material route: a country's harm in a sector over
 * its region's output of that sector; the ARMS sector's conflict share is spread over world arms
 * output. Multipliers M = S·L (L the Leontief inverse) give harm per EUR of final demand for each
 * column; a product's figure per 1,000 EUR is its column's, and spend goes through the COICOP bridge.
 * The explain layers split L = I + A + A² + (L − I − A − A²): the last stage, the first tier of
 * suppliers, the second, and all further tiers.
 */
import type { HarmResult } from './harm.ts';
import { ARMS_SECTOR } from './harm.ts';
import { identity, leontiefInverse, multiply, subtract, type Matrix } from './matrix.ts';
import type { CoicopCode, Register } from './types.ts';

export const LAYERS = [
  { key: 'direct', label: 'last production stage' },
  { key: 'tier-1', label: 'first tier of suppliers' },
  { key: 'tier-2', label: 'second tier of suppliers' },
  { key: 'tier-3+', label: 'third and further tiers' },
] as const;

export interface MrioModel {
  regions: string[];
  sectors: string[];
  n: number;
  index(region: string, sector: string): number;
  L: Matrix;
  layers: Matrix[];
  output: Float64Array; // million EUR per column
  sourcing: Map<string, number>; // `${sector}|${from}|${to}`
}

export function buildMrio(reg: Register): MrioModel {
  const { regions, sectors } = reg.mrio;
  const n = regions.length * sectors.length;
  const ri = new Map(regions.map((r, i) => [r, i]));
  const si = new Map(sectors.map((s, i) => [s, i]));
  const index = (r: string, s: string) => {
    const a = ri.get(r);
    const b = si.get(s);
    if (a === undefined || b === undefined) throw new Error(`no input-output column ${r}:${s}`);
    return a * sectors.length + b;
  };
  const A: Matrix = { n, data: new Float64Array(n * n) };
  for (const c of reg.mrio.coefficients)
    A.data[index(c.from_region, c.from_sector) * n + index(c.to_region, c.to_sector)]! += c.value;
  const L = leontiefInverse(A);
  const I = identity(n);
  const A2 = multiply(A, A);
  const rest = subtract(subtract(subtract(L, I), A), A2);
  const output = new Float64Array(n);
  for (const r of regions) for (const s of sectors) output[index(r, s)] = reg.mrio.output[r]?.[s] ?? 0;
  const sourcing = new Map(reg.mrio.sourcing.map((x) => [`${x.sector}|${x.from_region}|${x.to_region}`, x.share]));
  return { regions, sectors, n, index, L, layers: [I, A, A2, rest], output, sourcing };
}

/** S per channel: Float64Array of n columns × draws (column-major by draw: [col * draws + d]). */
export interface Intensities {
  channels: string[];
  byChannel: Map<string, Float64Array>;
  draws: number;
}

export function harmIntensities(reg: Register, model: MrioModel, harm: HarmResult, draws: number): Intensities {
  const regionOf = new Map(reg.countries.map((c) => [c.iso3, c.mrio_region]));
  const channels = reg.channels.map((c) => c.code);
  const byChannel = new Map(channels.map((c) => [c, new Float64Array(model.n * draws)]));
  let armsOutput = 0;
  for (const r of model.regions) armsOutput += model.output[model.index(r, ARMS_SECTOR)] ?? 0;
  for (const sh of harm.sectorHarm.values()) {
    const s = byChannel.get(sh.channel)!;
    if (sh.sector === ARMS_SECTOR) {
      // Arms are made for wars wherever they are fought: spread over world arms output.
      for (const r of model.regions) {
        const col = model.index(r, ARMS_SECTOR);
        for (let d = 0; d < draws; d++) s[col * draws + d]! += sh.total[d]! / armsOutput;
      }
      continue;
    }
    const region = regionOf.get(sh.iso3);
    if (!region) continue;
    const col = model.index(region, sh.sector);
    const out = model.output[col]!;
    if (!(out > 0)) continue;
    for (let d = 0; d < draws; d++) s[col * draws + d]! += sh.total[d]! / out;
  }
  return { channels, byChannel, draws };
}

export interface ColumnResult {
  /** harm per 1,000 EUR of final demand for the column, per draw */
  total: Float64Array;
  byChannel: Map<string, Float64Array>;
  bySector: Map<string, Float64Array>;
  byRegion: Map<string, Float64Array>;
  byLayer: Map<string, Float64Array>;
}

/** Harm per `scale` EUR of final demand y (a column when y is a unit vector); `totalOnly` skips the breakdowns. */
export function footprint(
  model: MrioModel,
  s: Intensities,
  y: Float64Array,
  scale: number,
  totalOnly = false,
): ColumnResult {
  const N = s.draws;
  const n = model.n;
  const res: ColumnResult = {
    total: new Float64Array(N),
    byChannel: new Map(),
    bySector: new Map(),
    byRegion: new Map(),
    byLayer: new Map(),
  };
  // requirement of each column i per unit of y, for L and for each layer
  const req = (totalOnly ? [model.L] : [model.L, ...model.layers]).map((m) => {
    const r = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let v = 0;
      for (let j = 0; j < n; j++) if (y[j] !== 0) v += m.data[i * n + j]! * y[j]!;
      r[i] = v;
    }
    return r;
  });
  const k = scale / 1e6; // S is per million EUR
  for (const [channel, S] of s.byChannel) {
    const chan = new Float64Array(N);
    let any = false;
    for (let i = 0; i < n; i++) {
      const li = req[0]![i]!;
      const base = i * N;
      let nonzero = false;
      for (let d = 0; d < N; d++)
        if (S[base + d] !== 0) {
          nonzero = true;
          break;
        }
      if (!nonzero || li === 0) continue;
      any = true;
      if (totalOnly) {
        for (let d = 0; d < N; d++) chan[d]! += S[base + d]! * li * k;
        continue;
      }
      const sector = model.sectors[i % model.sectors.length]!;
      const region = model.regions[Math.floor(i / model.sectors.length)]!;
      const bySector = grab(res.bySector, sector, N);
      const byRegion = grab(res.byRegion, region, N);
      for (let d = 0; d < N; d++) {
        const v = S[base + d]! * li * k;
        chan[d]! += v;
        bySector[d]! += v;
        byRegion[d]! += v;
      }
      LAYERS.forEach((layer, l) => {
        const w = req[l + 1]![i]! * k;
        if (w === 0) return;
        const arr = grab(res.byLayer, layer.key, N);
        for (let d = 0; d < N; d++) arr[d]! += S[base + d]! * w;
      });
    }
    if (!any) continue;
    res.byChannel.set(channel, chan);
    for (let d = 0; d < N; d++) res.total[d]! += chan[d]!;
  }
  return res;
}

function grab(map: Map<string, Float64Array>, key: string, n: number): Float64Array {
  let a = map.get(key);
  if (!a) map.set(key, (a = new Float64Array(n)));
  return a;
}

export function unitColumn(model: MrioModel, region: string, sector: string): Float64Array {
  const y = new Float64Array(model.n);
  y[model.index(region, sector)] = 1;
  return y;
}

/** Final demand of one EUR spent on a COICOP code by a consumer in `consumer`: bridge × sourcing. */
export function spendVector(model: MrioModel, code: CoicopCode, consumer: string): Float64Array {
  const y = new Float64Array(model.n);
  for (const b of code.bridge) {
    for (const from of model.regions) {
      const share = model.sourcing.get(`${b.sector}|${from}|${consumer}`) ?? 0;
      if (share > 0) y[model.index(from, b.sector)]! += b.share * share;
    }
  }
  return y;
}

/** Share of the output that y sets off (through L) made in `region`. */
export function madeIn(model: MrioModel, y: Float64Array, region: string): number | null {
  const n = model.n;
  let all = 0;
  let home = 0;
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let j = 0; j < n; j++) v += model.L.data[i * n + j]! * y[j]!;
    all += v;
    if (model.regions[Math.floor(i / model.sectors.length)] === region) home += v;
  }
  return all > 0 ? home / all : null;
}
