/**
 * The register tables both registers (the demo and the published) build the same way from their
 * fixture files: the source register, channels, scenarios, methodology versions, the input-output
 * table (expanded from one technology matrix, regional outputs and a home bias) and the COICOP
 * bridge. The input-output table and the bridge are authored (no open source: EXIOBASE is share-alike
 * and gigabytes), so every row of them carries the 'illustrative' provenance it is given. Pure.
 */
import type { ProvenanceTable } from '../import/provenance.ts';
import type { Fixtures, Row, SourceEntry } from './shapes.ts';

export type Tables = Record<string, Row[]>;

export function sourceRows(sources: SourceEntry[]): Tables {
  return {
    impact_sources: sources.map(({ releases: _r, licence, feeds, reuse_open, ...s }) => ({
      ...s,
      licence_name: licence?.name ?? null,
      licence_url: licence?.url ?? null,
      licence_spdx: licence?.spdx ?? null,
      reuse_open: reuse_open ?? null,
      feeds: feeds ?? [],
    })),
    impact_source_releases: sources.flatMap((s) => s.releases.map((r) => ({ source: s.code, ...r }))),
  };
}

export function definitionRows(f: Fixtures, scenarioParams: Row = {}): Tables {
  return {
    impact_channels: f['channels.json'].channels.map((c, i) => ({ ...c, ordinal: i + 1 })),
    impact_scenarios: f['scenarios.json'].scenarios.map((s, i) => ({
      code: s.code,
      name: s.name,
      description: s.description,
      is_default: s.default === true,
      params: { ...s.params, ...scenarioParams },
      ordinal: i + 1,
    })),
    impact_methodology_versions: f['methodology.json'].versions.map((m) => ({
      code: m.code,
      version: m.version,
      published_on: m.published_on,
      summary: m.summary,
      frozen: m.frozen,
      document_path: m.document_path,
      document_sha256: '',
      links: { document: m.document_path },
    })),
  };
}

/** The input-output table from one technology matrix, regional outputs and home bias (sectors.json). */
export function mrioRows(f: Fixtures, prov: ProvenanceTable): Tables {
  const sec = f['sectors.json'];
  const provenance = prov.id({
    source: 'trio-demo',
    release: null,
    basis: 'illustrative',
    method:
      'An illustrative 12-sector, 6-region table (one technology matrix, regional outputs, a home bias per sector), not EXIOBASE.',
    file: 'fixtures/impact/sectors.json',
  });
  const regions = sec.regions.map((r) => r.code);
  const output: Row[] = [];
  const sourcing: Row[] = [];
  const coefficients: Row[] = [];
  for (const r of regions)
    for (const s of sec.sectors)
      output.push({ region: r, sector: s.code, output_meur: sec.output_meur[r]![s.code]!, provenance });
  for (const s of sec.sectors) {
    const world = regions.reduce((a, r) => a + sec.output_meur[r]![s.code]!, 0);
    for (const from of regions) {
      for (const to of regions) {
        const share = (from === to ? s.home_bias : 0) + (1 - s.home_bias) * (sec.output_meur[from]![s.code]! / world);
        sourcing.push({ sector: s.code, from_region: from, to_region: to, share, provenance });
      }
    }
  }
  const shareOf = new Map(sourcing.map((x) => [`${x.sector}|${x.from_region}|${x.to_region}`, x.share as number]));
  for (const [fromSector, row] of Object.entries(sec.coefficients)) {
    for (const [toSector, a] of Object.entries(row)) {
      for (const from of regions)
        for (const to of regions)
          coefficients.push({
            from_region: from,
            from_sector: fromSector,
            to_region: to,
            to_sector: toSector,
            value: a * shareOf.get(`${fromSector}|${from}|${to}`)!,
            provenance,
          });
    }
  }
  return {
    impact_mrio_regions: sec.regions.map((r, i) => ({ ...r, ordinal: i + 1 })),
    impact_sectors: sec.sectors.map((s, i) => ({
      code: s.code,
      name: s.name,
      isic: s.isic,
      kind: s.kind,
      ordinal: i + 1,
    })),
    impact_mrio_output: output,
    impact_mrio_sourcing: sourcing,
    impact_mrio_coefficients: coefficients,
  };
}

/** COICOP 2018 codes, their budget shares and bridge to sectors (titles UNSD; shares and bridge illustrative). */
export function coicopRows(f: Fixtures, prov: ProvenanceTable): Tables {
  const coicop = f['coicop.json'].codes;
  const provenance = prov.id({
    source: 'trio-demo',
    release: null,
    basis: 'illustrative',
    method: 'Budget shares and the bridge to sectors authored for the demo; titles from COICOP 2018.',
    file: 'fixtures/impact/coicop.json',
  });
  return {
    impact_coicop: coicop.map((c) => ({
      code: c.code,
      level: c.code.includes('-') ? 'group' : 'division',
      parent: c.code.includes('-') ? c.code.slice(0, 2) : null,
      name: c.name,
      group_code: c.group,
      share_of_spend: c.share,
      share_source: c.share === null ? null : 'trio-demo',
      note: 'Title from COICOP 2018 (unsd-coicop); share and bridge illustrative (trio-demo).',
      provenance,
    })),
    impact_coicop_bridge: coicop.flatMap((c) =>
      Object.entries(c.bridge).map(([sector, share]) => ({ code: c.code, sector, share, provenance })),
    ),
    impact_coicop_left_out: coicop.flatMap((c) =>
      Object.entries(c.left_out).map(([industry, why]) => ({ code: c.code, industry, why })),
    ),
  };
}
