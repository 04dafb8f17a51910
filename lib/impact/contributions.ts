/**
 * A breakdown's rows (impact_contributions): each part's statistics from its draws, ordered largest
 * mean first, with its share of the headline's mean. Parts carry no provenance of their own: their
 * headline does. Pure.
 */
import { BASIS_LABELS } from './basis.ts';
import type { Grade } from './figure.ts';
import { NO_PROVENANCE, statColumns, type ContributionRow, type StatColumns } from './rows.ts';

export const BASIS_NAMES = new Map<string, string>(Object.entries(BASIS_LABELS));

export function pushContributions(
  out: ContributionRow[],
  product: string,
  metric: string,
  route: string,
  dimension: string,
  map: ReadonlyMap<string, Float64Array>,
  labels: Map<string, string>,
  headline: number,
  cap: Grade,
  scratch: Float64Array,
) {
  pushStats(
    out,
    product,
    metric,
    route,
    dimension,
    new Map([...map.entries()].map(([k, d]) => [k, statColumns(d, cap, scratch)])),
    labels,
    headline,
  );
}

export function pushStats(
  out: ContributionRow[],
  product: string,
  metric: string,
  route: string,
  dimension: string,
  stats: Map<string, StatColumns>,
  labels: Map<string, string>,
  headline: number,
) {
  const sorted = [...stats.entries()].sort(([ka, a], [kb, b]) => b.mean - a.mean || (ka < kb ? -1 : ka > kb ? 1 : 0));
  sorted.forEach(([key, s], i) => {
    out.push({
      product,
      metric,
      route,
      dimension,
      key,
      label: labels.get(key) ?? key,
      seq: i + 1,
      ...s,
      share: headline > 0 ? s.mean / headline : null,
      ...NO_PROVENANCE,
    });
  });
}
