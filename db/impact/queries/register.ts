/**
 * Register facts other than the catalogue, for the read API (migration 004): conflicts with their
 * attribution periods and ledger, countries with the harm counted in them, channels, scenarios,
 * methodology versions, the source register with releases, COICOP codes, and the names /search scans.
 */
import type { Db } from '../../connection.ts';
import type { SourceFacts } from '../../../lib/impact/envelope.ts';
import type { SearchEntry } from '../../../lib/impact/present-search.ts';
import { statementsFor } from '../../statements.ts';

/** Where an input value comes from (impact_provenance with its release's publication date). */
export interface RowProvenance {
  basis: string;
  source: string;
  release: string | null;
  published_on: string | null;
  method: string | null;
  file: string | null;
}

export interface ConflictRow {
  slug: string;
  name: string;
  provenance: number | null;
  ucdp_conflict_id: number | null;
  ucdp_id_note: string | null;
  type: string;
  region: string;
  year_from: number | null;
  year_to: number | null;
  resource_linked: number;
}
export interface PeriodRow {
  label: string;
  year_from: number;
  year_to: number;
  rationale: string;
}
export interface ShareRow {
  label: string;
  sector: string;
  name: string;
  share: number | null;
  confidence: string | null;
  basis: string | null;
}
export interface CountryRow {
  iso3: string;
  iso2: string;
  name: string;
  region: string;
  income_group: string | null;
  wb_region: string | null;
  income_provenance: number | null;
}
export interface ChannelRow {
  code: string;
  name: string;
  description: string;
  requires_paf: number;
  exclusion_rule: string;
  attribution: string | null;
}
export interface ScenarioRow {
  code: string;
  name: string;
  description: string;
  is_default: number;
  params: string;
}
export interface CoicopRow {
  code: string;
  level: string;
  parent: string | null;
  name: string;
  group_code: string;
  note: string;
}

const statements = statementsFor((db) => ({
  conflict: db.prepare(
    'SELECT slug, name, ucdp_conflict_id, ucdp_id_note, type, region, year_from, year_to, resource_linked, provenance FROM impact_conflicts WHERE slug = ?',
  ),
  provenance: db.prepare(`SELECT p.basis, p.source, p.release, r.published_on, p.method, p.file FROM impact_provenance p
    LEFT JOIN impact_source_releases r ON r.source = p.source AND r.release = p.release WHERE p.id = ?`),
  periods: db.prepare(
    'SELECT label, year_from, year_to, rationale FROM impact_conflict_periods WHERE conflict = ? AND scenario = ? ORDER BY ordinal, label',
  ),
  shares:
    db.prepare(`SELECT s.label, s.sector, x.name, s.share, s.confidence, p.basis FROM impact_conflict_shares s JOIN impact_sectors x ON x.code = s.sector
    LEFT JOIN impact_provenance p ON p.id = s.provenance WHERE s.conflict = ? AND s.scenario = ? ORDER BY x.ordinal`),
  // Events are counted only where every row has them (the GED ledger); battle-death rows have none.
  ledger:
    db.prepare(`SELECT count(*) AS rows, CASE WHEN count(events) = count(*) THEN coalesce(sum(events), 0) END AS events,
    coalesce(sum(deaths_best), 0) AS deaths_best, CASE WHEN count(events) = count(*) THEN coalesce(sum(precise_events), 0) END AS precise_events,
    min(year) AS year_min, max(year) AS year_max, count(DISTINCT iso3) AS countries, min(source) AS source
    FROM impact_conflict_ledger WHERE conflict = ?`),
  ledgerYears:
    db.prepare(`SELECT year, sum(deaths_best) AS deaths_best, sum(deaths_low) AS deaths_low, sum(deaths_high) AS deaths_high,
    count(DISTINCT iso3) AS countries FROM impact_conflict_ledger WHERE conflict = ? GROUP BY year ORDER BY year`),
  country: db.prepare(
    'SELECT iso3, iso2, name, region, income_group, wb_region, income_provenance FROM impact_countries WHERE iso3 = ?',
  ),
  activities:
    db.prepare(`SELECT channel, activity, sum(deaths) AS deaths, CASE WHEN count(injuries) > 0 THEN sum(injuries) END AS injuries,
    min(year) AS year_min, max(year) AS year_max, min(source) AS source FROM impact_harm_counted WHERE iso3 = ?
    GROUP BY channel, activity ORDER BY channel, activity`),
  harm: db.prepare(`SELECT h.channel, sum(h.deaths) AS deaths, min(h.year) AS year_min, max(h.year) AS year_max,
    (SELECT l.deaths FROM impact_harm_counted l WHERE l.iso3 = h.iso3 AND l.channel = h.channel ORDER BY l.year DESC LIMIT 1) AS latest_year_deaths
    FROM impact_harm_counted h WHERE h.iso3 = ? GROUP BY h.channel ORDER BY h.channel`),
  channel: db.prepare(
    'SELECT code, name, description, requires_paf, exclusion_rule, attribution FROM impact_channels WHERE code = ?',
  ),
  channelRecords:
    db.prepare(`SELECT count(*) AS rows, coalesce(sum(events), 0) AS events, coalesce(sum(deaths), 0) AS deaths,
    count(DISTINCT iso3) AS countries, min(year) AS year_min, max(year) AS year_max FROM impact_harm_counted WHERE channel = ?`),
  scenarios: db.prepare('SELECT code, name, description, is_default, params FROM impact_scenarios ORDER BY ordinal'),
  methodology: db.prepare(
    'SELECT code, version, published_on, summary, frozen, document_sha256, links FROM impact_methodology_versions ORDER BY code',
  ),
  document: db.prepare('SELECT code, document_path, document_sha256 FROM impact_methodology_versions WHERE code = ?'),
  sources:
    db.prepare(`SELECT code, name, publisher, homepage, enabled, verified_on, basis, licence_name, licence_url, licence_spdx, credit,
    usage_restriction, note, reuse_open, feeds FROM impact_sources ORDER BY code`),
  releases: db.prepare(
    'SELECT source, release, published_on, accessed_on, url, note FROM impact_source_releases ORDER BY source, release',
  ),
  coicop: db.prepare('SELECT code, level, parent, name, group_code, note FROM impact_coicop ORDER BY code'),
  // The search corpus, one list per type.
  corpus: {
    product: db.prepare("SELECT 'product' AS type, slug AS key, name FROM impact_products ORDER BY slug"),
    material: db.prepare("SELECT 'material' AS type, slug AS key, name FROM impact_materials ORDER BY slug"),
    conflict: db.prepare("SELECT 'conflict' AS type, slug AS key, name FROM impact_conflicts ORDER BY slug"),
    country: db.prepare("SELECT 'country' AS type, iso3 AS key, name, iso2 FROM impact_countries ORDER BY iso3"),
    channel: db.prepare("SELECT 'channel' AS type, code AS key, name FROM impact_channels ORDER BY ordinal"),
  },
}));

export function registerReads(db: Db) {
  const {
    conflict,
    provenance,
    periods,
    shares,
    ledger,
    ledgerYears,
    country,
    activities,
    harm,
    channel,
    channelRecords,
    scenarios,
    methodology,
    document,
    sources,
    releases,
    coicop,
    corpus,
  } = statements(db);

  type SourceRow = Omit<SourceFacts, 'releases'> & {
    enabled: number;
    basis: string | null;
    note: string | null;
    feeds: string | null;
  };
  type ReleaseRow = SourceFacts['releases'][number] & { source: string; note: string | null };

  return {
    conflict: (slug: string) => conflict.get(slug) as ConflictRow | undefined,
    periods: (slug: string, scenario: string) => periods.all(slug, scenario) as PeriodRow[],
    shares: (slug: string, scenario: string) => shares.all(slug, scenario) as ShareRow[],
    /** Where an input row's value comes from; null for a row that names no provenance. */
    provenance: (id: number | null) =>
      id === null ? null : ((provenance.get(id) as RowProvenance | undefined) ?? null),
    ledger: (slug: string) =>
      ledger.get(slug) as {
        rows: number;
        events: number | null;
        deaths_best: number;
        precise_events: number | null;
        year_min: number | null;
        year_max: number | null;
        countries: number;
        source: string | null;
      },
    ledgerYears: (slug: string) =>
      ledgerYears.all(slug) as Array<{
        year: number;
        deaths_best: number;
        deaths_low: number;
        deaths_high: number;
        countries: number;
      }>,
    /** The harm counted in a country per channel and activity (what the source counts it under). */
    activities: (iso3: string) =>
      activities.all(iso3) as Array<{
        channel: string;
        activity: string;
        deaths: number | null;
        injuries: number | null;
        year_min: number;
        year_max: number;
        source: string;
      }>,
    country: (iso3: string) => country.get(iso3) as CountryRow | undefined,
    harmCounted: (iso3: string) =>
      harm.all(iso3) as Array<{
        channel: string;
        deaths: number | null;
        year_min: number | null;
        year_max: number | null;
        latest_year_deaths: number | null;
      }>,
    channel: (code: string) => channel.get(code) as ChannelRow | undefined,
    channelRecords: (code: string) =>
      channelRecords.get(code) as {
        rows: number;
        events: number;
        deaths: number;
        countries: number;
        year_min: number | null;
        year_max: number | null;
      },
    scenarios: () => scenarios.all() as ScenarioRow[],
    methodology: () =>
      methodology.all() as Array<{
        code: string;
        version: string;
        published_on: string | null;
        summary: string;
        frozen: number;
        document_sha256: string;
        links: string;
      }>,
    /** Where a methodology version's document is (repository path) and the digest the register holds of it. */
    methodologyDocument: (code: string) =>
      document.get(code) as { code: string; document_path: string; document_sha256: string } | undefined,
    /** The whole source register, each source with its releases. */
    sources(): Array<SourceRow & { releases: ReleaseRow[] }> {
      const byCode = new Map<string, ReleaseRow[]>();
      for (const r of releases.all() as ReleaseRow[])
        (byCode.get(r.source) ?? byCode.set(r.source, []).get(r.source)!).push(r);
      return (sources.all() as SourceRow[]).map((s) => ({ ...s, releases: byCode.get(s.code) ?? [] }));
    },
    coicop: () => coicop.all() as CoicopRow[],
    /** Every name /search looks at. */
    searchCorpus(): SearchEntry[] {
      const rows = Object.values(corpus).flatMap((stmt) => stmt.all() as Array<SearchEntry & { iso2?: string }>);
      return rows.map(({ iso2, ...e }) => (iso2 ? { ...e, aliases: [iso2] } : e));
    },
  };
}

export type RegisterReads = ReturnType<typeof registerReads>;
