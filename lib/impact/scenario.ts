/**
 * Scenario parameters (impact_scenarios.params) and the input uncertainties of methodology v1.
 * A scenario changes only what its parameters name: which channels count, which shares count (by
 * confidence, by conflict), where a share is read in its band, whether arms manufacture takes a share,
 * the years harm is averaged over and the consumer region of /spend. Everything else is the same
 * register read the same way, with the same draws.
 */
import * as v from 'valibot';
import type { Confidence } from './types.ts';

export const SCENARIO_CODES = ['S-MAX', 'S-EVID', 'S-RES', 'S-ARMS', 'S-CONS'] as const;

const confidence = v.picklist(['high', 'medium', 'low']);

const CHANNEL = v.picklist(['C1', 'C2', 'C3', 'C4', 'C5']);
const YEARS = v.pipe(
  v.tuple([v.pipe(v.number(), v.integer()), v.pipe(v.number(), v.integer())]),
  v.check(([a, b]) => a <= b, 'years: from ≤ to'),
);

export const ScenarioParams = v.strictObject({
  channels: v.pipe(v.array(CHANNEL), v.minLength(1)),
  years: YEARS,
  /**
   * A channel's own window where its source covers other years (methodology v2 §7: the shipped
   * ILOSTAT extract ends in 2019, so C2 is averaged over 2015–2019).
   */
  channel_years: v.optional(v.record(CHANNEL, YEARS)),
  /** Shares below this confidence are not counted. */
  min_confidence: confidence,
  /** 'central' reads a share at its stated value; 'low' at the bottom of its confidence band. */
  share_basis: v.picklist(['central', 'low']),
  /** 'resource_linked' counts only conflicts with documented resource financing. */
  conflicts: v.picklist(['all', 'resource_linked']),
  /** Whether the ARMS sector's conflict shares count (scenario S-ARMS). */
  arms: v.boolean(),
  consumer: v.string(),
});
export type ScenarioParams = v.InferOutput<typeof ScenarioParams>;

/** The years a channel's harm is averaged over in a scenario. */
export function channelWindow(params: ScenarioParams, channel: string): readonly [number, number] {
  return params.channel_years?.[channel as keyof NonNullable<ScenarioParams['channel_years']>] ?? params.years;
}

export function parseParams(raw: unknown, code: string): ScenarioParams {
  const result = v.safeParse(ScenarioParams, raw);
  if (!result.success) {
    throw new Error(
      `scenario ${code}: invalid params: ${result.issues.map((i) => `${v.getDotPath(i) ?? ''} ${i.message}`).join('; ')}`,
    );
  }
  return result.output;
}

const RANK: Record<Confidence, number> = { low: 0, medium: 1, high: 2 };
export function meetsConfidence(c: Confidence | null, min: Confidence): boolean {
  return c !== null && RANK[c] >= RANK[min];
}

/**
 * The input uncertainties of methodology v1 (§7). Passed to the engine as a table so that a test can
 * switch them off (NO_UNCERTAINTY) and check a figure by hand.
 */
export interface Uncertainty {
  /** half-width of the uniform band a share is drawn in, relative to the share */
  shareBand: Record<Confidence, number>;
  /** geometric standard deviation of a bill-of-materials quantity, by the line's confidence */
  bomGsd: Record<Confidence, number>;
  /** geometric standard deviation of a count or a production figure, by its quality */
  qualityGsd: Record<string, number>;
  /** prices allocate a sector's harm between materials; illustrative in v1 */
  priceGsd: number;
  /** a ledger row's spread from its low and high counts (as a 90% range) rather than its quality */
  ledgerRange: boolean;
  /** a bill-of-materials line's spread from the range its cited sources give (as a 90% range) */
  bomRange: boolean;
}

export const V1_UNCERTAINTY: Uncertainty = {
  shareBand: { high: 0.2, medium: 0.5, low: 0.8 },
  bomGsd: { high: 1.05, medium: 1.15, low: 1.4 },
  qualityGsd: { reported: 1.1, estimated: 1.25, modelled: 1.5, illustrative: 1.5 },
  priceGsd: 1.3,
  ledgerRange: true,
  bomRange: true,
};

export const NO_UNCERTAINTY: Uncertainty = {
  shareBand: { high: 0, medium: 0, low: 0 },
  bomGsd: { high: 1, medium: 1, low: 1 },
  qualityGsd: {},
  priceGsd: 1,
  ledgerRange: false,
  bomRange: false,
};

export function qualityGsd(u: Uncertainty, quality: string): number {
  return u.qualityGsd[quality] ?? (Object.keys(u.qualityGsd).length ? 1.5 : 1);
}

/** Half-width of the band a share is known within (the v1 table; used for share_basis 'low'). */
export const SHARE_BAND = V1_UNCERTAINTY.shareBand;

/** The central value a scenario reads a share at. */
export function shareCentral(share: number, c: Confidence, basis: ScenarioParams['share_basis']): number {
  return basis === 'low' ? share * (1 - SHARE_BAND[c]) : share;
}
