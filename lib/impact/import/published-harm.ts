/**
 * The harm half of the published register: conflicts and their ledger (UCDP Battle-Related Deaths, or
 * an operator's GED file), each country's organised violence (battle deaths, and the rest: UCDP by
 * country via OWID), and work injuries (ILOSTAT) with the sector shares of each activity. Every row
 * carries its provenance. Pure.
 */
import { combineCountries, type CountryYearC1 } from './c1-countries.ts';
import type { GwTable } from './gleditsch-ward.ts';
import { importWorkInjuries } from './ilostat.ts';
import type { ProvenanceTable } from './provenance.ts';
import type { Reconciliation } from './reconcile.ts';
import { brdLedger, checkConflictYears, conflictFacts, readBrd } from './ucdp-brd.ts';
import { importGed } from './ucdp-ged.ts';
import { deathsWhereOccurred, importOrganisedViolence } from './ucdp-owid.ts';
import type { ConflictPeriods } from '../register/conflicts.ts';
import type { Row } from '../register/shapes.ts';

type Text = { text: string; file: string };
type Confidence = 'high' | 'medium' | 'low';

export interface PublishedConflict extends ConflictPeriods {
  ucdp_conflict_id: number | null;
  ucdp_id_note: string | null;
  resource_linked: boolean;
  note: string;
  /** only for a conflict without a UCDP id: what the register states of it */
  name?: string;
  type?: string;
  region?: string;
  year_from?: number | null;
  year_to?: number | null;
}

export interface ShareSpec {
  sector: string;
  share: number;
  confidence: Confidence;
  basis: 'derived' | 'assumption';
  rationale: string;
}

export interface HarmInputs {
  brd: Text;
  brdConflictYear: Text;
  owidRaw: Text;
  owidCoded: Text;
  ilostatFatal: Text;
  ilostatNonfatal: Text;
  ged: Text | null;
  conflicts: PublishedConflict[];
  work: Record<string, ShareSpec[]>;
  gw: GwTable;
  isoCodes: ReadonlySet<string>;
  /** M49 sub-region of a country (a conflict's region is its location's) */
  regionOf: (iso3: string) => string | null;
  releases: { brd: string; owid: string; ilostat: string; ged: string };
}

export function harmTables(
  inp: HarmInputs,
  prov: ProvenanceTable,
): { tables: Record<string, Row[]>; reconciliation: Reconciliation[] } {
  const reconciliation: Reconciliation[] = [];
  const registerIds = new Set(inp.conflicts.flatMap((k) => (k.ucdp_conflict_id === null ? [] : [k.ucdp_conflict_id])));
  const brdRows = readBrd(inp.brd.text, inp.brd.file);
  const occurred = deathsWhereOccurred(inp.owidCoded, inp.isoCodes);
  const brd = brdLedger(brdRows, inp.gw, registerIds, inp.brd.file, occurred);
  reconciliation.push(
    brd.reconciliation,
    checkConflictYears(brdRows, inp.brdConflictYear.text, inp.brdConflictYear.file),
  );
  const brdYears = [Math.min(...brdRows.map((r) => r.year)), Math.max(...brdRows.map((r) => r.year))] as const;
  const ged = inp.ged ? importGed(inp.ged.text, inp.ged.file, inp.gw, registerIds) : null;
  if (ged) reconciliation.push(ged.reconciliation);

  const brdSource = (basis: 'published' | 'derived', method: string | null) =>
    prov.id({ source: 'ucdp-brd', release: inp.releases.brd, basis, method, file: inp.brd.file });
  const conflicts: Row[] = [];
  const ledger: Row[] = [];
  const gedIds = new Set(ged?.ledger.map((c) => c.conflict_id) ?? []);
  for (const k of inp.conflicts) {
    const id = k.ucdp_conflict_id;
    const facts = id === null ? null : conflictFacts(brdRows, id);
    if (id !== null && !facts) throw new Error(`${inp.brd.file}: no conflict ${id} (asked for ${k.slug})`);
    const location = facts?.location_gw.map((c) => inp.gw.get(c)?.iso3 ?? null).find((x) => x !== null) ?? null;
    conflicts.push({
      slug: k.slug,
      name: facts?.name ?? k.name,
      ucdp_conflict_id: id,
      ucdp_id_note: k.ucdp_id_note,
      type: facts?.type ?? k.type,
      region: (location && inp.regionOf(location)) ?? k.region ?? 'not located',
      year_from: facts?.year_from ?? k.year_from ?? null,
      year_to: facts?.year_to ?? k.year_to ?? null,
      resource_linked: k.resource_linked,
      note: k.note,
      source: facts ? 'ucdp-brd' : 'trio-assumptions',
      provenance: facts
        ? brdSource(
            'derived',
            "Name by UCDP's convention (location: territory or Government; A - B between states), type and first and last year from the conflict's dyad-years.",
          )
        : prov.id({
            source: 'trio-assumptions',
            release: null,
            basis: 'assumption',
            method: k.ucdp_id_note,
            file: 'fixtures/impact/published/conflicts.json',
          }),
    });
    if (id === null) continue;
    if (gedIds.has(id)) {
      const gedProv = prov.id({
        source: 'ucdp-ged',
        release: inp.releases.ged,
        basis: 'derived',
        method: 'GED events summed per conflict, country and year.',
        file: inp.ged!.file,
      });
      for (const c of ged!.ledger.filter((x) => x.conflict_id === id))
        ledger.push({
          conflict: k.slug,
          iso3: c.iso3,
          year: c.year,
          events: c.events,
          deaths_best: c.best,
          deaths_low: c.low,
          deaths_high: c.high,
          precise_events: c.precise_events,
          quality: 'reported',
          source: 'ucdp-ged',
          provenance: gedProv,
        });
      continue;
    }
    for (const c of brd.ledger.filter((x) => x.conflict_id === id))
      ledger.push({
        conflict: k.slug,
        iso3: c.iso3,
        year: c.year,
        events: null,
        deaths_best: c.best,
        deaths_low: c.low,
        deaths_high: c.high,
        precise_events: null,
        quality: 'reported',
        source: 'ucdp-brd',
        provenance:
          c.split === 1
            ? brdSource('published', "Battle deaths summed over the conflict's dyads fought in this country.")
            : brdSource(
                'derived',
                'A dyad-year fought in several countries (gwno_battle) is split between them in whole deaths in proportion to the organised-violence deaths UCDP counts in each that year (by location of death, via OWID), the rest to the largest remainders; equally where none has any.',
              ),
      });
  }

  const owid = importOrganisedViolence(inp.owidRaw, inp.owidCoded, brd.countryBattle, brdYears, inp.isoCodes);
  reconciliation.push(...owid.reconciliation);
  const c1 = c1Rows(combineCountries(owid.rows, ged?.countries ?? []), inp, prov);

  const work = importWorkInjuries(
    [
      { ...inp.ilostatFatal, indicator: 'INJ_FATL_ECO_NB', metric: 'deaths' },
      { ...inp.ilostatNonfatal, indicator: 'INJ_NFTL_ECO_NB', metric: 'injuries' },
    ],
    inp.isoCodes,
  );
  reconciliation.push(...work.reconciliation);
  const workRows = work.rows.map((r) => ({
    iso3: r.iso3,
    channel: 'C2',
    activity: r.activity,
    year: r.year,
    deaths: r.deaths,
    injuries: r.injuries,
    events: null,
    paf: null,
    quality: r.quality,
    source: 'ilostat',
    note: `as reported: ${r.read_as}`,
    provenance: prov.id({
      source: 'ilostat',
      release: inp.releases.ilostat,
      basis: r.read_as.includes('+') || !r.read_as.startsWith('ISIC Rev.4') ? 'derived' : 'published',
      method:
        r.read_as.includes('+') || !r.read_as.startsWith('ISIC Rev.4')
          ? `Cases summed over ${r.read_as}, read as activity ${r.activity}.`
          : null,
      file: `${inp.ilostatFatal.file}; ${inp.ilostatNonfatal.file}`,
    }),
  }));
  const shares: Row[] = [];
  const activities = new Map<string, Set<string>>();
  for (const r of work.rows) (activities.get(r.iso3) ?? activities.set(r.iso3, new Set()).get(r.iso3)!).add(r.activity);
  for (const [iso3, acts] of [...activities].sort(([a], [b]) => a.localeCompare(b)))
    for (const activity of [...acts].sort())
      for (const s of inp.work[activity] ?? [])
        shares.push({
          channel: 'C2',
          iso3,
          activity,
          sector: s.sector,
          share: s.share,
          confidence: s.confidence,
          source: 'trio-assumptions',
          rationale: s.rationale,
          provenance: prov.id({
            source: 'trio-assumptions',
            release: null,
            basis: s.basis,
            method: s.rationale,
            file: 'fixtures/impact/published/work-shares.json',
          }),
        });

  return {
    tables: {
      impact_conflicts: conflicts,
      impact_conflict_ledger: ledger,
      impact_harm_counted: [...c1, ...workRows],
      impact_harm_sector_shares: shares,
    },
    reconciliation,
  };
}

function c1Rows(rows: CountryYearC1[], inp: HarmInputs, prov: ProvenanceTable): Row[] {
  const out: Row[] = [];
  for (const r of rows) {
    const battleProv = r.fromGed
      ? prov.id({
          source: 'ucdp-ged',
          release: inp.releases.ged,
          basis: 'derived',
          method: 'Type 1 (state-based) events summed per country and year.',
          file: inp.ged!.file,
        })
      : prov.id({
          source: 'ucdp-brd',
          release: inp.releases.brd,
          basis: 'derived',
          method:
            'Battle deaths of every state-based conflict fought in the country, summed (a dyad-year fought in several countries split by where UCDP counts organised-violence deaths that year).',
          file: inp.brd.file,
        });
    const otherProv = r.fromGed
      ? prov.id({
          source: 'ucdp-ged',
          release: inp.releases.ged,
          basis: 'derived',
          method: 'Type 2 (non-state) and 3 (one-sided) events summed per country and year.',
          file: inp.ged!.file,
        })
      : prov.id({
          source: 'ucdp-owid',
          release: inp.releases.owid,
          basis: 'derived',
          method:
            'All organised violence in the country (UCDP via OWID) less its battle deaths (UCDP BRD), at least 0: non-state conflict and one-sided violence, never assigned to a conflict.',
          file: inp.owidCoded.file,
        });
    const base = {
      iso3: r.iso3,
      channel: 'C1',
      year: r.year,
      injuries: null,
      events: null,
      paf: null,
      quality: 'reported',
    };
    out.push({
      ...base,
      activity: 'battle',
      deaths: r.battle,
      source: r.fromGed ? 'ucdp-ged' : 'ucdp-brd',
      note: 'battle deaths of state-based conflicts',
      provenance: battleProv,
    });
    out.push({
      ...base,
      activity: 'other',
      deaths: r.other,
      source: r.fromGed ? 'ucdp-ged' : 'ucdp-owid',
      note: 'organised violence outside the battle-death count (non-state, one-sided)',
      provenance: otherProv,
    });
  }
  return out;
}
