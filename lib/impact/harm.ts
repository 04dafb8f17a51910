/**
 * Stage 1 of both routes (methodology v2 §3): harm counted per channel, country and year, attributed
 * to sectors. For every draw it gives the annual harm attributed to each (channel, country, sector),
 * averaged over the channel's window, split by conflict for C1 and by the bases of the inputs it rests
 * on (lib/impact/basis.ts). It also records, per channel, country and year, the largest ratio of
 * attributed to counted harm over the draws: the gate "attributed never exceeds counted" reads it.
 *
 * C1 ledger: each row's deaths × the sector shares of the conflict period containing its year. A year
 *     with no ledger row had no deaths: the mean is over every year of the window.
 * Counted rows (C2–C4, and C1 organised violence outside the ledger): each row × the country's sector
 *     shares for its channel and activity (ILOSTAT counts per ISIC section). A year with no row is
 *     unknown, not zero: the mean is over the years that have a value for the metric. Channels that
 *     require a PAF count only rows that carry one.
 * Shares are drawn uniformly within their confidence band and capped at 1; when a group's central
 * shares add up to at most 1, a draw whose shares add up to more is scaled back to 1. When the central
 * shares already exceed 1 nothing is scaled: the gate must see it.
 */
import { pack } from './basis.ts';
import { bandFactors, lognormalFactors } from './random.ts';
import {
  channelWindow,
  meetsConfidence,
  qualityGsd,
  shareCentral,
  type ScenarioParams,
  type Uncertainty,
} from './scenario.ts';
import type { Basis } from './basis.ts';
import type { Confidence, Metric, Register } from './types.ts';

export const ARMS_SECTOR = 'ARMS';

/** One part of a sector's harm: through one conflict (or none) and resting on one pair of bases. */
export interface HarmPart {
  conflict: string | null;
  /** packed bases of the count and the share (lib/impact/basis.ts) */
  code: number;
  draws: Float64Array;
}

export interface SectorHarm {
  channel: string;
  iso3: string;
  sector: string;
  /** annual attributed harm, per draw */
  total: Float64Array;
  /** C1 only: the same split by conflict */
  byConflict: Map<string, Float64Array>;
  /** the same split by conflict (or none) and by the bases it rests on; the parts add up to total */
  parts: Map<string, HarmPart>;
  /** sources of the counts and shares behind it */
  sources: Set<string>;
}

export interface CountedExcess {
  channel: string;
  iso3: string;
  year: number;
  ratio: number;
}

export interface HarmResult {
  sectorHarm: Map<string, SectorHarm>;
  /** annual counted harm per `${channel}|${iso3}`, central (for reach) */
  counted: Map<string, number>;
  /** annual ledger deaths per conflict, central, within the window */
  conflictCounted: Map<string, number>;
  /** largest attributed/counted ratio over draws, per channel, country and year with harm */
  ratios: CountedExcess[];
  excludedRows: number;
  sources: Set<string>;
}

interface ShareDraws {
  sector: string;
  draws: Float64Array;
  source: string;
  basis: Basis | undefined;
}

type ShareInput = {
  sector: string;
  share: number | null;
  confidence: Confidence | null;
  source: string;
  basis?: Basis;
};

/** Draws of a group of shares (a conflict period, or a country's shares for a channel and activity). */
function drawShares(
  shares: ShareInput[],
  keyPrefix: string,
  params: ScenarioParams,
  u: Uncertainty,
  seed: number,
  n: number,
): ShareDraws[] {
  const kept = shares.filter(
    (s) =>
      s.share !== null &&
      s.confidence !== null &&
      (s.sector !== ARMS_SECTOR || params.arms) &&
      meetsConfidence(s.confidence, params.min_confidence),
  );
  const out = kept.map((s) => {
    const central = shareCentral(s.share!, s.confidence!, params.share_basis);
    const band = bandFactors(seed, `${keyPrefix}|${s.sector}`, n, u.shareBand[s.confidence!]);
    for (let d = 0; d < n; d++) band[d] = Math.min(1, central * band[d]!);
    return { sector: s.sector, draws: band, source: s.source, basis: s.basis };
  });
  const centralSum = kept.reduce((a, s) => a + shareCentral(s.share!, s.confidence!, params.share_basis), 0);
  if (centralSum <= 1) {
    for (let d = 0; d < n; d++) {
      let sum = 0;
      for (const s of out) sum += s.draws[d]!;
      if (sum > 1) for (const s of out) s.draws[d]! /= sum;
    }
  }
  return out;
}

/** The accumulators of one attribution: sector harm by part, and attributed and counted per year for the gate. */
class Accumulator {
  readonly sectorHarm = new Map<string, SectorHarm>();
  private readonly check = new Map<string, { att: Float64Array; cnt: Float64Array }>();

  constructor(private readonly n: number) {}

  checkSlot(key: string) {
    let c = this.check.get(key);
    if (!c) this.check.set(key, (c = { att: new Float64Array(this.n), cnt: new Float64Array(this.n) }));
    return c;
  }

  /** Adds value × share ÷ years to the sector's harm (and value × share to the year's attributed). */
  attribute(
    target: { channel: string; iso3: string; sector: string; conflict: string | null; code: number },
    value: Float64Array,
    share: Float64Array,
    years: number,
    check: { att: Float64Array },
    sources: string[],
  ) {
    const { n } = this;
    const key = `${target.channel}|${target.iso3}|${target.sector}`;
    let s = this.sectorHarm.get(key);
    if (!s)
      this.sectorHarm.set(
        key,
        (s = {
          channel: target.channel,
          iso3: target.iso3,
          sector: target.sector,
          total: new Float64Array(n),
          byConflict: new Map(),
          parts: new Map(),
          sources: new Set(),
        }),
      );
    sources.forEach((x) => s.sources.add(x));
    const partKey = `${target.conflict ?? ''}|${target.code}`;
    let part = s.parts.get(partKey);
    if (!part)
      s.parts.set(partKey, (part = { conflict: target.conflict, code: target.code, draws: new Float64Array(n) }));
    let byK: Float64Array | undefined;
    if (target.conflict !== null) {
      byK = s.byConflict.get(target.conflict);
      if (!byK) s.byConflict.set(target.conflict, (byK = new Float64Array(n)));
    }
    for (let d = 0; d < n; d++) {
      const a = value[d]! * share[d]!;
      s.total[d]! += a / years;
      part.draws[d]! += a / years;
      if (byK) byK[d]! += a / years;
      check.att[d]! += a;
    }
  }

  ratios(): CountedExcess[] {
    const out: CountedExcess[] = [];
    for (const [key, c] of [...this.check.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      let worst = 0;
      for (let d = 0; d < this.n; d++) if (c.cnt[d]! > 0) worst = Math.max(worst, c.att[d]! / c.cnt[d]!);
      const [channel, iso3, year] = key.split('|');
      out.push({ channel: channel!, iso3: iso3!, year: Number(year), ratio: worst });
    }
    return out;
  }
}

export function attributeHarm(
  reg: Register,
  params: ScenarioParams,
  scenario: string,
  metric: Metric,
  seed: number,
  n: number,
  u: Uncertainty,
): HarmResult {
  const channels = new Set<string>(params.channels);
  const requiresPaf = new Map(reg.channels.map((c) => [c.code, c.requires_paf]));
  const acc = new Accumulator(n);
  const counted = new Map<string, number>();
  const conflictCounted = new Map<string, number>();
  const sources = new Set<string>();
  let excludedRows = 0;
  const addCounted = (map: Map<string, number>, key: string, v: number) => map.set(key, (map.get(key) ?? 0) + v);

  // C1: the conflict ledger. UCDP counts no injuries: C1 contributes none.
  if (channels.has('C1') && metric === 'deaths') {
    const [y0, y1] = channelWindow(params, 'C1');
    const nYears = y1 - y0 + 1;
    const conflicts = new Map(reg.conflicts.map((k) => [k.slug, k]));
    const periods = reg.periods.filter((p) => p.scenario === scenario);
    const shareCache = new Map<string, ShareDraws[]>();
    for (const row of reg.ledger) {
      const k = conflicts.get(row.conflict);
      if (!k || row.year < y0 || row.year > y1) continue;
      if (params.conflicts === 'resource_linked' && !k.resource_linked) continue;
      sources.add(row.source);
      addCounted(conflictCounted, k.slug, row.deaths_best / nYears);
      addCounted(counted, `C1|${row.iso3}`, row.deaths_best / nYears);
      const gsd =
        u.ledgerRange && row.deaths_low > 0
          ? Math.max(1, Math.pow(row.deaths_high / row.deaths_low, 1 / (2 * 1.645)))
          : qualityGsd(u, row.quality);
      const deaths = lognormalFactors(seed, `ledger|${row.conflict}|${row.iso3}|${row.year}`, n, gsd);
      for (let d = 0; d < n; d++) deaths[d]! *= row.deaths_best;
      const c = acc.checkSlot(`C1|${row.iso3}|${row.year}`);
      for (let d = 0; d < n; d++) c.cnt[d]! += deaths[d]!;
      const period = periods.find(
        (p) => p.conflict === row.conflict && p.year_from <= row.year && row.year <= p.year_to,
      );
      if (!period) continue;
      const pkey = `${period.conflict}|${period.label}`;
      let shares = shareCache.get(pkey);
      if (!shares) shareCache.set(pkey, (shares = drawShares(period.shares, `cshare|${pkey}`, params, u, seed, n)));
      for (const s of shares) {
        sources.add(s.source);
        const code = pack({ counts: row.basis, attribution: s.basis });
        const target = { channel: 'C1', iso3: row.iso3, sector: s.sector, conflict: k.slug, code };
        acc.attribute(target, deaths, s.draws, nYears, c, [s.source, row.source]);
      }
    }
  }

  // Counted rows and the country's sector shares for the channel and activity.
  const groupKey = (r: { channel: string; iso3: string; activity?: string }) =>
    `${r.channel}|${r.iso3}|${r.activity ?? 'all'}`;
  const yearsWithValue = new Map<string, number>();
  const rows = reg.harm.filter((r) => {
    const [y0, y1] = channelWindow(params, r.channel);
    if (!channels.has(r.channel) || r.year < y0 || r.year > y1) return false;
    if (r.channel === 'C1' && metric !== 'deaths') return false;
    if (requiresPaf.get(r.channel) && r.paf === null) {
      excludedRows++;
      return false;
    }
    return true;
  });
  const valueOf = (r: (typeof rows)[number]) => (metric === 'deaths' ? r.deaths : r.injuries);
  for (const r of rows) if (valueOf(r) !== null) addCounted(yearsWithValue, groupKey(r), 1);
  const sharesOf = new Map<string, ShareDraws[]>();
  for (const r of rows) {
    const value = valueOf(r);
    if (value === null || value === 0) continue;
    sources.add(r.source);
    const gk = groupKey(r);
    const years = yearsWithValue.get(gk)!;
    addCounted(counted, `${r.channel}|${r.iso3}`, value / years);
    const harm = lognormalFactors(
      seed,
      `harm|${r.channel}|${r.iso3}|${r.activity && r.activity !== 'all' ? `${r.activity}|` : ''}${r.year}|${metric}`,
      n,
      qualityGsd(u, r.quality),
    );
    for (let d = 0; d < n; d++) harm[d]! *= value;
    let shares = sharesOf.get(gk);
    if (!shares) {
      const group = reg.harm_shares.filter((s) => groupKey(s) === gk);
      const prefix = r.activity && r.activity !== 'all' ? gk : `${r.channel}|${r.iso3}`;
      sharesOf.set(gk, (shares = drawShares(group, `hshare|${prefix}`, params, u, seed, n)));
    }
    const c = acc.checkSlot(`${r.channel}|${r.iso3}|${r.year}`);
    for (let d = 0; d < n; d++) c.cnt[d]! += harm[d]!;
    for (const s of shares) {
      sources.add(s.source);
      const code = pack({ counts: r.basis, attribution: s.basis });
      const target = { channel: r.channel, iso3: r.iso3, sector: s.sector, conflict: null, code };
      acc.attribute(target, harm, s.draws, years, c, [s.source, r.source]);
    }
  }

  return {
    sectorHarm: acc.sectorHarm,
    counted,
    conflictCounted,
    ratios: acc.ratios(),
    excludedRows,
    sources,
  };
}
