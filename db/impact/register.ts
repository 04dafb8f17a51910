/**
 * Reads the impact register from SQLite into the plain structure the engine computes on
 * (lib/impact/types.ts). Every query has an ORDER BY: the same register always reads the same, which
 * is what makes inputs_sha256 and byte-identical runs possible.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../connection.ts';
import type { BomLine, CoicopCode, ConflictPeriod, Production, Register } from '../../lib/impact/types.ts';

type Row = Record<string, unknown>;
const all = (db: Db, sql: string) => db.prepare(sql).all() as Row[];
const bool = (v: unknown) => v === 1;

export class RegisterMissingError extends Error {}

export function isImpactRegisterLoaded(db: Db): boolean {
  return db.prepare("SELECT 1 FROM impact_register_meta WHERE key = 'data_version'").get() !== undefined;
}

export function readRegister(db: Db): Register {
  const meta = Object.fromEntries(
    all(db, 'SELECT key, value FROM impact_register_meta ORDER BY key').map((r) => [r.key, r.value]),
  ) as Record<string, string>;
  if (!meta.data_version)
    throw new RegisterMissingError(
      'The impact register is empty: load it with `main.ts demo` (or `demo --no-publish`).',
    );
  // The version the register applies (registers loaded before migration 013 name none: v1).
  const code = meta.methodology_version ?? 'v1';
  const methodology = db
    .prepare('SELECT code, document_sha256 FROM impact_methodology_versions WHERE code = ?')
    .get(code) as { code: string; document_sha256: string } | undefined;
  if (!methodology) throw new RegisterMissingError(`No methodology version ${code} in the register.`);
  // What each input row rests on (migration 013): its provenance's basis.
  const basis = new Map(
    all(db, 'SELECT id, basis FROM impact_provenance ORDER BY id').map((r) => [r.id as number, r.basis as string]),
  );
  const basisOf = (id: unknown) => (id === null || id === undefined ? undefined : (basis.get(id as number) as never));
  /** Rows with their provenance id replaced by its basis (what the engine needs of it). */
  const withBasis = (rows: Row[], column = 'provenance', as = 'basis') =>
    rows.map(({ [column]: id, ...r }) => ({ ...r, [as]: basisOf(id) }));

  // Sources a material's values also rest on beyond their rows' own (a conversion factor's, v3).
  const alsoSources = new Map<string, string[]>();
  for (const r of all(
    db,
    `SELECT m.slug AS material, p.source FROM impact_materials m JOIN impact_provenance p ON p.id = m.price_provenance
      WHERE p.source <> m.price_source
     UNION SELECT w.material, p.source FROM impact_material_production w JOIN impact_provenance p ON p.id = w.provenance
      WHERE p.source <> w.source
     ORDER BY 1, 2`,
  ))
    alsoSources.set(r.material as string, [...(alsoSources.get(r.material as string) ?? []), r.source as string]);

  const production = new Map<string, Production>();
  for (const w of all(db, 'SELECT * FROM impact_material_world ORDER BY material, year')) {
    production.set(`${w.material}|${w.year}`, {
      material: w.material as string,
      year: w.year as number,
      unit: w.unit as string,
      world_total: w.world_total as number | null,
      source: w.source as string,
      note: w.note as string | null,
      basis: basisOf(w.provenance),
      countries: [],
    });
  }
  for (const p of all(db, 'SELECT * FROM impact_material_production ORDER BY material, year, iso3')) {
    production.get(`${p.material}|${p.year}`)!.countries.push({
      iso3: p.iso3 as string,
      qty: p.qty as number | null,
      quality: p.quality as string,
      source: p.source as string,
      basis: basisOf(p.provenance),
    });
  }

  const periods = new Map<string, ConflictPeriod>();
  for (const p of all(db, 'SELECT * FROM impact_conflict_periods ORDER BY conflict, scenario, ordinal')) {
    periods.set(`${p.conflict}|${p.scenario}|${p.label}`, {
      conflict: p.conflict as string,
      scenario: p.scenario as string,
      label: p.label as string,
      year_from: p.year_from as number,
      year_to: p.year_to as number,
      shares: [],
    });
  }
  for (const s of all(db, 'SELECT * FROM impact_conflict_shares ORDER BY conflict, scenario, label, sector')) {
    periods.get(`${s.conflict}|${s.scenario}|${s.label}`)!.shares.push({
      sector: s.sector as string,
      share: s.share as number | null,
      confidence: s.confidence as never,
      source: s.source as string,
      basis: basisOf(s.provenance),
    });
  }

  const coicop = new Map<string, CoicopCode>();
  for (const c of all(db, 'SELECT * FROM impact_coicop ORDER BY code')) {
    coicop.set(c.code as string, {
      code: c.code as string,
      level: c.level as never,
      name: c.name as string,
      share_of_spend: c.share_of_spend as number | null,
      share_source: c.share_source as string | null,
      bridge: [],
      left_out: [],
    });
  }
  for (const b of all(db, 'SELECT * FROM impact_coicop_bridge ORDER BY code, sector'))
    coicop.get(b.code as string)!.bridge.push({ sector: b.sector as string, share: b.share as number });
  for (const l of all(db, 'SELECT * FROM impact_coicop_left_out ORDER BY code, industry'))
    coicop.get(l.code as string)!.left_out.push({ industry: l.industry as string, why: l.why as string });

  const output: Register['mrio']['output'] = {};
  for (const o of all(db, 'SELECT * FROM impact_mrio_output ORDER BY region, sector'))
    (output[o.region as string] ??= {})[o.sector as string] = o.output_meur as number;

  return {
    data_version: meta.data_version,
    illustrative: meta.illustrative === '1',
    methodology,
    sources: all(
      db,
      'SELECT code, enabled, licence_name, credit, usage_restriction, verified_on FROM impact_sources ORDER BY code',
    ).map((s) => ({ ...s, enabled: bool(s.enabled) })) as never,
    sectors: all(db, 'SELECT code, name, kind FROM impact_sectors ORDER BY ordinal') as never,
    countries: all(db, 'SELECT iso3, name, mrio_region FROM impact_countries ORDER BY iso3') as never,
    channels: all(db, 'SELECT code, name, requires_paf FROM impact_channels ORDER BY ordinal').map((c) => ({
      ...c,
      requires_paf: bool(c.requires_paf),
    })) as never,
    materials: withBasis(
      all(
        db,
        'SELECT slug, name, sector, price_eur_per_kg, price_source, price_provenance FROM impact_materials ORDER BY slug',
      ),
      'price_provenance',
      'price_basis',
    ).map((m) => ({ ...m, also_sources: alsoSources.get(m.slug as string) ?? [] })) as never,
    production: [...production.values()],
    other_output: withBasis(
      all(
        db,
        'SELECT sector, iso3, value_eur, source, provenance FROM impact_sector_other_output ORDER BY sector, iso3',
      ),
    ) as never,
    products: withBasis(
      all(
        db,
        'SELECT slug, name, tier, unit, unit_mass_g, is_arms, complete, bom_confidence, price_eur, price_source, price_provenance, mrio_region, mrio_sector FROM impact_products ORDER BY slug',
      ),
      'price_provenance',
      'price_basis',
    ).map((p) => ({ ...p, is_arms: bool(p.is_arms), complete: bool(p.complete) })) as never,
    bom: withBasis(
      all(
        db,
        'SELECT product, line, role, component_type, component_key, component_name, qty, unit, loss_factor, confidence, qty_low, qty_high, provenance FROM impact_bom_lines ORDER BY product, line',
      ),
    ) as unknown as BomLine[],
    conflicts: all(db, 'SELECT slug, name, resource_linked, source FROM impact_conflicts ORDER BY slug').map((k) => ({
      ...k,
      resource_linked: bool(k.resource_linked),
    })) as never,
    periods: [...periods.values()],
    ledger: withBasis(
      all(
        db,
        'SELECT conflict, iso3, year, deaths_best, deaths_low, deaths_high, quality, source, provenance FROM impact_conflict_ledger ORDER BY conflict, iso3, year',
      ),
    ) as never,
    // C1's battle deaths are the ledger's (attributed per conflict); the rest of a country's organised
    // violence is counted harm like C2–C4's.
    harm: withBasis(
      all(
        db,
        "SELECT iso3, channel, activity, year, deaths, injuries, paf, quality, source, provenance FROM impact_harm_counted WHERE NOT (channel = 'C1' AND activity = 'battle') ORDER BY channel, iso3, activity, year",
      ),
    ) as never,
    harm_shares: withBasis(
      all(
        db,
        'SELECT channel, iso3, activity, sector, share, confidence, source, provenance FROM impact_harm_sector_shares ORDER BY channel, iso3, activity, sector',
      ),
    ) as never,
    mrio: {
      regions: all(db, 'SELECT code FROM impact_mrio_regions ORDER BY ordinal').map((r) => r.code as string),
      sectors: all(db, 'SELECT code FROM impact_sectors ORDER BY ordinal').map((r) => r.code as string),
      output,
      coefficients: all(
        db,
        'SELECT from_region, from_sector, to_region, to_sector, value FROM impact_mrio_coefficients ORDER BY from_region, from_sector, to_region, to_sector',
      ) as never,
      sourcing: all(
        db,
        'SELECT sector, from_region, to_region, share FROM impact_mrio_sourcing ORDER BY sector, from_region, to_region',
      ) as never,
      basis: basisOf(
        db.prepare('SELECT provenance FROM impact_mrio_output ORDER BY region, sector LIMIT 1').pluck().get(),
      ),
    },
    coicop: [...coicop.values()],
    scenarios: all(db, 'SELECT code, name, params FROM impact_scenarios ORDER BY ordinal').map((s) => ({
      code: s.code as string,
      name: s.name as string,
      params: JSON.parse(s.params as string) as unknown,
    })),
    // The input-output table (trio-demo) and the ECB rate every price was converted with.
    always_sources: ['trio-demo', 'ecb-fx'].filter(
      (c) => db.prepare('SELECT 1 FROM impact_sources WHERE code = ?').get(c) !== undefined,
    ),
    spend_sources: ['unsd-coicop'].filter(
      (c) => db.prepare('SELECT 1 FROM impact_sources WHERE code = ?').get(c) !== undefined,
    ),
  };
}

/** SHA-256 of what the engine reads for a scenario: the register (with the methodology hash) and the scenario. */
export function inputsSha256(reg: Register, scenario: string): string {
  return createHash('sha256').update(JSON.stringify(reg)).update(`\n${scenario}`).digest('hex');
}
