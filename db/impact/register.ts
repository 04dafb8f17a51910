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
  const methodology = db
    .prepare("SELECT code, document_sha256 FROM impact_methodology_versions WHERE code = 'v1'")
    .get() as { code: string; document_sha256: string } | undefined;
  if (!methodology) throw new RegisterMissingError('No methodology version v1 in the register.');

  const production = new Map<string, Production>();
  for (const w of all(db, 'SELECT * FROM impact_material_world ORDER BY material, year')) {
    production.set(`${w.material}|${w.year}`, {
      material: w.material as string,
      year: w.year as number,
      unit: w.unit as string,
      world_total: w.world_total as number | null,
      source: w.source as string,
      note: w.note as string | null,
      countries: [],
    });
  }
  for (const p of all(db, 'SELECT * FROM impact_material_production ORDER BY material, year, iso3')) {
    production.get(`${p.material}|${p.year}`)!.countries.push({
      iso3: p.iso3 as string,
      qty: p.qty as number,
      quality: p.quality as string,
      source: p.source as string,
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
    materials: all(
      db,
      'SELECT slug, name, sector, price_eur_per_kg, price_source FROM impact_materials ORDER BY slug',
    ) as never,
    production: [...production.values()],
    other_output: all(
      db,
      'SELECT sector, iso3, value_eur, source FROM impact_sector_other_output ORDER BY sector, iso3',
    ) as never,
    products: all(
      db,
      'SELECT slug, name, tier, unit, unit_mass_g, is_arms, complete, bom_confidence, price_eur, price_source, mrio_region, mrio_sector FROM impact_products ORDER BY slug',
    ).map((p) => ({ ...p, is_arms: bool(p.is_arms), complete: bool(p.complete) })) as never,
    bom: all(
      db,
      'SELECT product, line, role, component_type, component_key, component_name, qty, unit, loss_factor, confidence FROM impact_bom_lines ORDER BY product, line',
    ) as unknown as BomLine[],
    conflicts: all(db, 'SELECT slug, name, resource_linked, source FROM impact_conflicts ORDER BY slug').map((k) => ({
      ...k,
      resource_linked: bool(k.resource_linked),
    })) as never,
    periods: [...periods.values()],
    ledger: all(
      db,
      'SELECT conflict, iso3, year, deaths_best, deaths_low, deaths_high, quality, source FROM impact_conflict_ledger ORDER BY conflict, iso3, year',
    ) as never,
    harm: all(
      db,
      "SELECT iso3, channel, year, deaths, injuries, paf, quality, source FROM impact_harm_counted WHERE channel <> 'C1' ORDER BY channel, iso3, year",
    ) as never,
    harm_shares: all(
      db,
      'SELECT channel, iso3, sector, share, confidence, source FROM impact_harm_sector_shares ORDER BY channel, iso3, sector',
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
    },
    coicop: [...coicop.values()],
    scenarios: all(db, 'SELECT code, name, params FROM impact_scenarios ORDER BY ordinal').map((s) => ({
      code: s.code as string,
      name: s.name as string,
      params: JSON.parse(s.params as string) as unknown,
    })),
    always_sources: ['trio-demo'].filter(
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
