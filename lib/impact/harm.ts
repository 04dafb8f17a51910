/**
 * Stage 1 of both routes (methodology v1 §2): harm counted per channel, country and year, attributed
 * to sectors. For every draw it gives the annual harm attributed to each (channel, country, sector),
 * averaged over the scenario's years, split by conflict for C1. It also records, per channel,
 * country and year, the largest ratio of attributed to counted harm over the draws: the gate
 * "attributed never exceeds counted" reads it.
 *
 * C1: each ledger row's deaths × the sector shares of the conflict period containing its year. A
 *     year with no ledger row had no deaths: the mean is over every year of the window.
 * C2–C4: each counted row × the country's sector shares for the channel. A year with no row is
 *     unknown, not zero: the mean is over the years that have one. Channels that require a PAF count
 *     only rows that carry one.
 * Shares are drawn uniformly within their confidence band and capped at 1; when a period's (or a
 * country's) central shares add up to at most 1, a draw whose shares add up to more is scaled back
 * to 1. When the central shares already exceed 1 nothing is scaled: the gate must see it.
 */
import { bandFactors, lognormalFactors } from './random.ts';
import { meetsConfidence, qualityGsd, shareCentral, type ScenarioParams, type Uncertainty } from './scenario.ts';
import type { Confidence, Metric, Register } from './types.ts';

export const ARMS_SECTOR = 'ARMS';

export interface SectorHarm {
  channel: string;
  iso3: string;
  sector: string;
  /** annual attributed harm, per draw */
  total: Float64Array;
  /** C1 only: the same split by conflict */
  byConflict: Map<string, Float64Array>;
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
}

/** Draws of a group of shares (a conflict period, or a country's shares for a channel). */
function drawShares(
  shares: Array<{ sector: string; share: number | null; confidence: Confidence | null; source: string }>,
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
    return { sector: s.sector, draws: band, source: s.source };
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

export function attributeHarm(
  reg: Register,
  params: ScenarioParams,
  scenario: string,
  metric: Metric,
  seed: number,
  n: number,
  u: Uncertainty,
): HarmResult {
  const [y0, y1] = params.years;
  const nYears = y1 - y0 + 1;
  const channels = new Set<string>(params.channels);
  const requiresPaf = new Map(reg.channels.map((c) => [c.code, c.requires_paf]));
  const sectorHarm = new Map<string, SectorHarm>();
  const counted = new Map<string, number>();
  const conflictCounted = new Map<string, number>();
  const sources = new Set<string>();
  const ratios: CountedExcess[] = [];
  let excludedRows = 0;

  const slot = (channel: string, iso3: string, sector: string): SectorHarm => {
    const key = `${channel}|${iso3}|${sector}`;
    let s = sectorHarm.get(key);
    if (!s)
      sectorHarm.set(
        key,
        (s = { channel, iso3, sector, total: new Float64Array(n), byConflict: new Map(), sources: new Set() }),
      );
    return s;
  };
  // attributed and counted per (channel|iso3|year), per draw, for the gate
  const check = new Map<string, { att: Float64Array; cnt: Float64Array }>();
  const checkSlot = (key: string) => {
    let c = check.get(key);
    if (!c) check.set(key, (c = { att: new Float64Array(n), cnt: new Float64Array(n) }));
    return c;
  };

  // C1: the conflict ledger. UCDP counts no injuries: C1 contributes none.
  if (channels.has('C1') && metric === 'deaths') {
    const conflicts = new Map(reg.conflicts.map((k) => [k.slug, k]));
    const periods = reg.periods.filter((p) => p.scenario === scenario);
    const shareCache = new Map<string, ShareDraws[]>();
    for (const row of reg.ledger) {
      const k = conflicts.get(row.conflict);
      if (!k || row.year < y0 || row.year > y1) continue;
      if (params.conflicts === 'resource_linked' && !k.resource_linked) continue;
      sources.add(row.source);
      conflictCounted.set(k.slug, (conflictCounted.get(k.slug) ?? 0) + row.deaths_best / nYears);
      const ckey = `C1|${row.iso3}`;
      counted.set(ckey, (counted.get(ckey) ?? 0) + row.deaths_best / nYears);
      const gsd =
        u.ledgerRange && row.deaths_low > 0
          ? Math.max(1, Math.pow(row.deaths_high / row.deaths_low, 1 / (2 * 1.645)))
          : qualityGsd(u, row.quality);
      const deaths = lognormalFactors(seed, `ledger|${row.conflict}|${row.iso3}|${row.year}`, n, gsd);
      for (let d = 0; d < n; d++) deaths[d]! *= row.deaths_best;
      const c = checkSlot(`C1|${row.iso3}|${row.year}`);
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
        const target = slot('C1', row.iso3, s.sector);
        target.sources.add(s.source).add(row.source);
        let byK = target.byConflict.get(k.slug);
        if (!byK) target.byConflict.set(k.slug, (byK = new Float64Array(n)));
        for (let d = 0; d < n; d++) {
          const a = deaths[d]! * s.draws[d]!;
          target.total[d]! += a / nYears;
          byK[d]! += a / nYears;
          c.att[d]! += a;
        }
      }
    }
  }

  // C2–C4: counted rows and the country's sector shares.
  const yearsWithRow = new Map<string, number>();
  const rows = reg.harm.filter((r) => {
    if (!channels.has(r.channel) || r.year < y0 || r.year > y1) return false;
    if (requiresPaf.get(r.channel) && r.paf === null) {
      excludedRows++;
      return false;
    }
    return true;
  });
  for (const r of rows)
    yearsWithRow.set(`${r.channel}|${r.iso3}`, (yearsWithRow.get(`${r.channel}|${r.iso3}`) ?? 0) + 1);
  const sharesOf = new Map<string, ShareDraws[]>();
  for (const r of rows) {
    const value = metric === 'deaths' ? r.deaths : r.injuries;
    if (value === null || value === 0) continue;
    sources.add(r.source);
    const ck = `${r.channel}|${r.iso3}`;
    const years = yearsWithRow.get(ck)!;
    counted.set(ck, (counted.get(ck) ?? 0) + value / years);
    const harm = lognormalFactors(seed, `harm|${r.channel}|${r.iso3}|${r.year}|${metric}`, n, qualityGsd(u, r.quality));
    for (let d = 0; d < n; d++) harm[d]! *= value;
    let shares = sharesOf.get(ck);
    if (!shares) {
      const group = reg.harm_shares.filter((s) => s.channel === r.channel && s.iso3 === r.iso3);
      sharesOf.set(ck, (shares = drawShares(group, `hshare|${ck}`, params, u, seed, n)));
    }
    const c = checkSlot(`${ck}|${r.year}`);
    for (let d = 0; d < n; d++) c.cnt[d]! += harm[d]!;
    for (const s of shares) {
      sources.add(s.source);
      const target = slot(r.channel, r.iso3, s.sector);
      target.sources.add(s.source).add(r.source);
      for (let d = 0; d < n; d++) {
        const a = harm[d]! * s.draws[d]!;
        target.total[d]! += a / years;
        c.att[d]! += a;
      }
    }
  }

  for (const [key, c] of [...check.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let worst = 0;
    for (let d = 0; d < n; d++) if (c.cnt[d]! > 0) worst = Math.max(worst, c.att[d]! / c.cnt[d]!);
    const [channel, iso3, year] = key.split('|');
    ratios.push({ channel: channel!, iso3: iso3!, year: Number(year), ratio: worst });
  }
  return { sectorHarm, counted, conflictCounted, ratios, excludedRows, sources };
}
