/**
 * The published register (methodology v2 §1): every table built from the published files of
 * data/impact/ by the importers beside this file, and from the authored inputs of
 * fixtures/impact/published/ where no open source gives a fact (each such row labelled an assumption
 * or illustrative). Deterministic: the same files give the same rows in the same order, and the same
 * provenance ids. Returns the tables and each file's reconciliation. Pure: the caller reads the files.
 */
import { buildCountries, type IsoCountry, type M49Entry, type RegionOverride } from '../countries.ts';
import { coicopRows, definitionRows, mrioRows, sourceRows, type Tables } from '../register/common.ts';
import { periodRows } from '../register/conflicts.ts';
import { productRows } from '../register/products.ts';
import type { Fixtures, Row, SourceEntry } from '../register/shapes.ts';
import { importBomEvidence, type EvidenceSpec } from './bom-evidence.ts';
import { evidenceReconciliation, readEvidenceTables } from './bom-tables.ts';
import { agriculturalProduction, faostatRow, type FaostatMapping } from './faostat.ts';
import { readGwTable } from './gleditsch-ward.ts';
import { importConflictMinerals, importCriticality, importIncomeGroups, type CriticalityKeys } from './lists.ts';
import { checkWeights, importPrices, type PricePick } from './prices.ts';
import { ProvenanceTable } from './provenance.ts';
import { miningLines, otherOutputRows, type OtherOutputSpec } from './other-output.ts';
import { harmTables, type PublishedConflict, type ShareSpec } from './published-harm.ts';
import type { Reconciliation } from './reconcile.ts';
import { importProduction, readRaw, readTidy, reconcileRaw, type UsgsMapping } from './usgs.ts';

type Text = { text: string; file: string };

export interface PublishedMaterial {
  slug: string;
  name: string;
  category: string;
  content_basis: string;
  sector: string;
  flags: Record<string, unknown>;
  note: string;
  usgs?: Omit<UsgsMapping, 'material'>;
  illustrative_production?: { year: number; world: number | null; countries: Record<string, number>; note: string };
  /** the FAOSTAT item an agricultural material is, and the conversion to its register form */
  faostat?: Omit<FaostatMapping, 'material'>;
  price: PricePick;
  criticality: Omit<CriticalityKeys, 'material'>;
}

export interface PublishedInputs {
  manifest: { data_version: string; scenario_params: Row };
  sources: SourceEntry[];
  materials: PublishedMaterial[];
  conflicts: PublishedConflict[];
  work: Record<string, ShareSpec[]>;
  bom: EvidenceSpec[];
  shared: Fixtures;
  files: Record<string, Text>;
  /** the publisher CSV of each USGS file code the materials name */
  usgsRaw: Record<string, Text>;
  /** how the sectors' other output is derived (materials.json `other_output`) */
  otherOutput: OtherOutputSpec;
  /** USGS salient statistics the other output's unit values come from, by file code */
  usgsSalientRaw: Record<string, Text>;
  ged: Text | null;
  iso: IsoCountry[];
  m49: M49Entry[];
}

export function publishedTables(inp: PublishedInputs): {
  tables: Tables;
  provenance: ProvenanceTable;
  reconciliation: Reconciliation[];
} {
  const prov = new ProvenanceTable();
  const rec: Reconciliation[] = [];
  const f = inp.files;
  const release = (code: string, i = 0) =>
    (inp.sources.find((s) => s.code === code)?.releases[i]?.release as string) ?? null;
  const isoCodes = new Set(inp.iso.map((c) => c.alpha3));
  const t: Tables = { ...sourceRows(inp.sources), ...definitionRows(inp.shared, inp.manifest.scenario_params) };

  const income = importIncomeGroups(f.wb_class!.text, f.wb_class!.file, isoCodes);
  rec.push(income.reconciliation);
  const sec = inp.shared['sectors.json'];
  const countries = buildCountries(
    inp.iso,
    inp.m49,
    income.facts.income,
    (inp.shared['country-overrides.json'] as { regions: Record<string, RegionOverride> }).regions,
    {
      single: sec.regions.map((r) => r.code).filter((c) => c !== 'EUR' && c !== 'ROW'),
      groups: { EUR: sec.eu27 },
      rest: 'ROW',
    },
    'wb-class',
  );
  const incomeProv = prov.id({
    source: 'wb-class',
    release: release('wb-class'),
    basis: 'published',
    method: null,
    file: f.wb_class!.file,
  });
  t.impact_countries = countries.map((c) => ({
    ...c,
    wb_region: income.facts.regions.get(c.iso3) ?? null,
    income_provenance: c.income_group ? incomeProv : null,
  })) as unknown as Row[];
  Object.assign(t, mrioRows(inp.shared, prov), coicopRows(inp.shared, prov));

  Object.assign(t, materialTables(inp, prov, rec, isoCodes, release));
  const tables = readEvidenceTables({
    bom: { ...f.bom_figures!, source: 'bom-literature', release: release('bom-literature')! },
    add: { ...f.bom_additions!, source: 'bom-additions', release: release('bom-additions')! },
    std: { ...f.std_compositions!, source: 'standard-compositions', release: release('standard-compositions')! },
    batpac: { ...f.batpac!, source: 'batpac', release: release('batpac')! },
    tcf: { ...f.fao_tcf!, source: 'fao-tcf', release: release('fao-tcf')! },
  });
  const evidence = importBomEvidence(tables, inp.bom);
  rec.push(...evidenceReconciliation(tables, evidence.used));
  Object.assign(t, productRows(inp.shared, inp.materials, prov, evidence.lines));

  const regionOf = new Map(countries.map((c) => [c.iso3, c.region]));
  const harm = harmTables(
    {
      brd: f.brd_dyadic!,
      brdConflictYear: f.brd_conflict_year!,
      owidRaw: f.owid_raw!,
      owidCoded: f.owid_coded!,
      ilostatFatal: f.ilostat_fatal!,
      ilostatNonfatal: f.ilostat_nonfatal!,
      ged: inp.ged,
      conflicts: inp.conflicts,
      work: inp.work,
      gw: readGwTable(f.gw_iso!.text, f.gw_iso!.file, isoCodes),
      isoCodes,
      regionOf: (iso3) => regionOf.get(iso3) ?? null,
      releases: {
        brd: release('ucdp-brd'),
        owid: release('ucdp-owid'),
        ilostat: release('ilostat'),
        ged: release('ucdp-ged'),
      },
    },
    prov,
  );
  rec.push(...harm.reconciliation);
  Object.assign(t, harm.tables);
  Object.assign(
    t,
    periodRows(inp.conflicts, inp.shared['scenarios.json'].scenarios, 'trio-assumptions', (_k, rationale) =>
      prov.id({
        source: 'trio-assumptions',
        release: null,
        basis: 'assumption',
        method: rationale,
        file: 'fixtures/impact/published/conflicts.json',
      }),
    ),
  );
  return { tables: t, provenance: prov, reconciliation: rec };
}

function materialTables(
  inp: PublishedInputs,
  prov: ProvenanceTable,
  rec: Reconciliation[],
  isoCodes: ReadonlySet<string>,
  release: (code: string, i?: number) => string | null,
): Tables {
  const f = inp.files;
  const mappings = inp.materials.flatMap((m) => (m.usgs ? [{ material: m.slug, ...m.usgs }] : []));
  const tidy = readTidy(f.usgs_tidy!.text, f.usgs_tidy!.file);
  for (const code of [...new Set(mappings.map((m) => m.file))].sort()) {
    const raw = inp.usgsRaw[code]!;
    rec.push(reconcileRaw(readRaw(raw.text, raw.file), raw.file, raw.file.split('/').pop()!, tidy));
  }
  const mining = miningLines(inp.otherOutput.mining, tidy, f.usgs_tidy!.file);
  const production = importProduction(
    tidy,
    mappings,
    isoCodes,
    f.usgs_tidy!.file,
    new Set([...mining.values()].map((r) => r.line)),
  );
  rec.push(production.reconciliation);
  // the factor rows bills of materials cite: reconciled with the production's (one file, one count)
  const bomTcf = new Set(
    inp.bom.flatMap((b) => b.convert?.steps.flatMap((s) => s.rows.map((r) => r.replace(/^tcf:/, ''))) ?? []),
  );
  const fao = agriculturalProduction(inp.materials, inp.files, inp.m49, rec, isoCodes, bomTcf);
  const picks = inp.materials.map((m) => ({ material: m.slug, price: m.price }));
  const prices = importPrices(
    {
      usgs: { ...f.usgs_salient!, release: release('usgs-mcs', 1)! },
      pink: { ...f.pink_sheet!, release: release('wb-pink-sheet')! },
      ecb: { ...f.ecb!, release: release('ecb-fx')! },
      register: f.price_register!,
      value: { ...f.usgs_ree_value!, release: release('usgs-mcs', 4)! },
      crops: fao.crops(release('fao-tcf')),
    },
    picks,
  );
  rec.push(...prices.reconciliation);
  rec.push(checkWeights(f.ico_coffee!, picks));
  const crit = importCriticality(
    f.eu_crma!,
    f.usgs_critical!,
    inp.materials.map((m) => ({ material: m.slug, ...m.criticality })),
  );
  rec.push(...crit.reconciliation);
  const tg = importConflictMinerals(
    f.three_tg!.text,
    f.three_tg!.file,
    inp.materials.map((m) => m.slug),
  );
  rec.push(tg.reconciliation);

  const usgsProv = (types: string[], unit: string) =>
    prov.id({
      source: 'usgs-mcs',
      release: release('usgs-mcs'),
      basis: types.length > 1 ? 'derived' : 'published',
      method:
        [
          types.length > 1 ? `Sum of the rows ${types.map((x) => `"${x}"`).join(' and ')}` : null,
          unit === 't' ? null : `${UNIT_WORDS[unit] ?? unit} converted to tonnes`,
        ]
          .filter(Boolean)
          .join('; ') || null,
      file: f.usgs_tidy!.file,
    });
  const materials: Row[] = [];
  const world: Row[] = [];
  const countries: Row[] = [];
  for (const m of inp.materials) {
    const price = prices.prices.find((p) => p.material === m.slug)!;
    const c = crit.byMaterial.get(m.slug)!;
    const cm = tg.byMaterial.get(m.slug)!;
    materials.push({
      slug: m.slug,
      name: m.name,
      category: m.category,
      unit: 'kg',
      content_basis: m.content_basis,
      sector: m.sector,
      flags: { ...m.flags, conflict_mineral: cm.flag, us_critical: c.us, eu_critical: c.eu },
      criticality_level: c.level,
      criticality_source: c.source,
      conflict_mineral: cm.flag,
      conflict_mineral_source: cm.source,
      price_eur_per_kg: price.eur_per_kg,
      price_source: price.source,
      price_provenance: prov.id({
        source: price.factor?.source ?? price.source,
        release: price.factor ? price.factor.release : price.release,
        basis: price.basis,
        method: price.method,
        file: price.file,
      }),
      note: m.note,
    });
    if (m.illustrative_production) {
      const p = m.illustrative_production;
      const pv = prov.id({
        source: 'trio-demo',
        release: null,
        basis: 'illustrative',
        method: p.note,
        file: 'fixtures/impact/published/materials.json',
      });
      world.push({
        material: m.slug,
        year: p.year,
        unit: 't',
        world_total: p.world,
        source: 'trio-demo',
        quality: 'illustrative',
        note: p.note,
        provenance: pv,
      });
      for (const [iso3, qty] of Object.entries(p.countries))
        countries.push({
          material: m.slug,
          year: p.year,
          iso3,
          qty,
          quality: 'illustrative',
          source: 'trio-demo',
          provenance: pv,
        });
      continue;
    }
    if (m.faostat) {
      for (const cell of fao.cells.filter((x) => x.material === m.slug)) {
        const row = faostatRow(cell, prov, release, f.faostat_production!.file);
        if (cell.iso3 === null) world.push({ ...row, unit: 't', world_total: cell.qty, note: cell.method });
        else countries.push({ ...row, iso3: cell.iso3, qty: cell.qty });
      }
      continue;
    }
    for (const cell of production.cells.filter((x) => x.material === m.slug)) {
      const row = {
        material: m.slug,
        year: cell.year,
        source: 'usgs-mcs',
        quality: cell.quality,
        provenance: usgsProv(cell.types, cell.unit_code),
      };
      if (cell.iso3 === null)
        world.push({
          ...row,
          unit: 't',
          world_total: cell.qty,
          note: 'World total (rounded) as USGS publishes it: the listed countries may add up to a little more.',
        });
      else countries.push({ ...row, iso3: cell.iso3, qty: cell.qty });
    }
  }
  return {
    impact_materials: materials,
    impact_material_world: world,
    impact_material_production: countries,
    impact_sector_other_output: otherOutputRows(
      inp.otherOutput,
      {
        faostat: f.faostat_priced_crops!,
        areas: f.faostat_areas!,
        pink: f.pink_other_crops!,
        ecb: f.ecb!,
        tidy: f.usgs_tidy!,
        salient: inp.usgsSalientRaw,
      },
      { prov, rec, isoCodes, release },
      { growers: new Set(fao.cells.flatMap((c) => (c.iso3 === null ? [] : [c.iso3]))), mining },
    ),
  };
}

const UNIT_WORDS: Record<string, string> = {
  kt: 'thousand metric tons',
  kg: 'kilograms',
  mmt: 'million metric tons',
  mt: 'million metric tons',
};
