/**
 * Conflicts' attribution periods and sector shares, per scenario (the scenario that counts arms
 * manufacture carries each conflict's ARMS share in its own periods), and the country-year sums of a
 * conflict ledger (counted harm of channel C1, activity 'battle'). Shared by the demo and the published
 * register. Pure.
 */
import type { Tables } from './common.ts';
import type { Period, Row } from './shapes.ts';

export interface ConflictPeriods {
  slug: string;
  arms_share: number;
  periods: Period[];
}

export function periodRows(
  conflicts: readonly ConflictPeriods[],
  scenarios: ReadonlyArray<{ code: string; params: Row }>,
  shareSource: string,
  provenanceOf: (conflict: ConflictPeriods, rationale: string) => number | null,
): Tables {
  const periods: Row[] = [];
  const shares: Row[] = [];
  for (const k of conflicts) {
    for (const s of scenarios) {
      k.periods.forEach((p, i) => {
        periods.push({
          conflict: k.slug,
          scenario: s.code,
          label: p.label,
          year_from: p.year_from,
          year_to: p.year_to,
          rationale: p.rationale,
          ordinal: i + 1,
        });
        const provenance = provenanceOf(k, p.rationale);
        for (const [sector, [share, confidence]] of Object.entries(p.shares))
          shares.push({
            conflict: k.slug,
            scenario: s.code,
            label: p.label,
            sector,
            share,
            confidence,
            source: shareSource,
            provenance,
          });
        if ((s.params as { arms?: boolean }).arms)
          shares.push({
            conflict: k.slug,
            scenario: s.code,
            label: p.label,
            sector: 'ARMS',
            share: k.arms_share,
            confidence: 'low',
            source: shareSource,
            provenance: provenanceOf(
              k,
              'The share of the deaths attributed to the manufacture of the arms used (scenario S-ARMS): normative, low confidence.',
            ),
          });
      });
    }
  }
  return { impact_conflict_periods: periods, impact_conflict_shares: shares };
}

/** A ledger summed per country and year: C1 counted harm ('battle'), one row per country-year. */
export function ledgerSums(ledger: readonly Row[], note: string): Row[] {
  const c1 = new Map<string, Row>();
  for (const l of ledger) {
    const key = `${l.iso3}|${l.year}`;
    const row = c1.get(key) ?? {
      iso3: l.iso3,
      channel: 'C1',
      activity: 'battle',
      year: l.year,
      deaths: 0,
      injuries: null,
      events: l.events === null ? null : 0,
      paf: null,
      quality: l.quality,
      source: l.source,
      note,
      provenance: l.provenance,
    };
    row.deaths = (row.deaths as number) + (l.deaths_best as number);
    row.events = row.events === null || l.events === null ? null : (row.events as number) + (l.events as number);
    c1.set(key, row);
  }
  return [...c1.values()];
}
