/**
 * The catalogue: capabilities, SLAs, cities and exact prices. Loaded from a JSON file
 * (fixtures/human/catalogue.json for the demo; a self-hoster writes their own) in one transaction,
 * and read by the quote, order and listing code. Prices are expanded at load time to one row per
 * (capability, live city, SLA), so a quote is one primary-key lookup.
 *
 * File format: `prices` entries give a capability's prices per SLA for a whole country, or for one
 * city (a city entry replaces the country's for that city: an SLA it leaves out is not served there).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { definition } from '../../lib/human/capabilities.ts';
import type { Db } from '../connection.ts';
import type { CapabilityRow, CatalogueReads, CityRow, PriceRow, SlaRow } from '../../lib/human/rows.ts';
import { statementsFor } from '../statements.ts';

export const DEMO_CATALOGUE = join(import.meta.dirname, '..', '..', 'fixtures', 'human', 'catalogue.json');

const slug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a city slug: lower-case letters, digits and hyphens'),
);
const country = v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, 'a two-letter upper-case country code'));
const cents = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000));

const CatalogueFile = v.strictObject({
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  slas: v.pipe(
    v.array(v.strictObject({ code: slug, title: v.string(), hours: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
    v.minLength(1),
  ),
  capabilities: v.pipe(
    v.array(v.strictObject({ id: v.string(), title: v.string(), description: v.string() })),
    v.minLength(1),
  ),
  cities: v.array(
    v.strictObject({
      country_iso: country,
      city_slug: slug,
      name: v.string(),
      latitude: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
      longitude: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
      live: v.boolean(),
    }),
  ),
  prices: v.array(
    v.strictObject({
      capability: v.string(),
      country_iso: country,
      city_slug: v.optional(slug),
      sla: v.record(v.string(), cents),
    }),
  ),
});

export class CatalogueError extends Error {}

const statements = statementsFor((db) => ({
  versionCount: db.prepare("SELECT count(*) FROM human_catalogue_meta WHERE key = 'version'").pluck(),
  deletePrices: db.prepare('DELETE FROM human_prices'),
  deleteCities: db.prepare('DELETE FROM human_cities'),
  retireCapabilities: db.prepare('UPDATE human_capabilities SET active = 0'),
  retireSlas: db.prepare('UPDATE human_slas SET active = 0'),
  upsertCapability:
    db.prepare(`INSERT INTO human_capabilities (id, title, description, ordinal, active) VALUES (?, ?, ?, ?, 1)
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description, ordinal = excluded.ordinal, active = 1`),
  upsertSla: db.prepare(`INSERT INTO human_slas (code, title, hours, ordinal, active) VALUES (?, ?, ?, ?, 1)
      ON CONFLICT (code) DO UPDATE SET title = excluded.title, hours = excluded.hours, ordinal = excluded.ordinal, active = 1`),
  insertCity: db.prepare(
    'INSERT INTO human_cities (country_iso, city_slug, name, latitude, longitude, live) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  insertPrice: db.prepare(
    'INSERT INTO human_prices (capability, country_iso, city_slug, sla, price_cents) VALUES (?, ?, ?, ?, ?)',
  ),
  version: db.prepare("SELECT value FROM human_catalogue_meta WHERE key = 'version'").pluck(),
  setMeta: db.prepare(
    'INSERT INTO human_catalogue_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ),
  currency: db.prepare("SELECT value FROM human_catalogue_meta WHERE key = 'currency'").pluck(),
  capabilities: db.prepare('SELECT id, title, description FROM human_capabilities WHERE active = 1 ORDER BY ordinal'),
  slas: db.prepare('SELECT code, title, hours FROM human_slas WHERE active = 1 ORDER BY ordinal'),
  cities: db.prepare(
    'SELECT country_iso, city_slug, name, latitude, longitude, live FROM human_cities ORDER BY country_iso, city_slug',
  ),
  prices: db.prepare(
    `SELECT p.capability, p.country_iso, p.city_slug, p.sla, p.price_cents FROM human_prices p
    JOIN human_slas s ON s.code = p.sla JOIN human_capabilities c ON c.id = p.capability
    WHERE c.active = 1 AND s.active = 1 ORDER BY c.ordinal, p.country_iso, p.city_slug, s.ordinal`,
  ),
}));

/** True until a catalogue has been loaded: app start (DEMO=on) then loads the demo one. */
export function isCatalogueEmpty(db: Db): boolean {
  return statements(db).versionCount.get() === 0;
}

export interface LoadSummary {
  version: number;
  capabilities: number;
  slas: number;
  cities: number;
  live_cities: number;
  prices: number;
}

/** Replaces the catalogue with the file's (tasks keep the capabilities and SLAs they were ordered under). */
export function loadCatalogue(db: Db, path: string = DEMO_CATALOGUE, now: number = Date.now()): LoadSummary {
  const raw = readFileSync(path);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new CatalogueError(`${path} is not JSON: ${(err as Error).message}`);
  }
  const result = v.safeParse(CatalogueFile, parsed, { abortEarly: true });
  if (!result.success) {
    const issue = result.issues[0];
    throw new CatalogueError(`${path}: ${issue.path?.map((p) => p.key).join('.') ?? '(root)'}: ${issue.message}`);
  }
  const file = result.output;
  for (const c of file.capabilities) {
    if (!definition(c.id))
      throw new CatalogueError(
        `capability ${c.id} has no definition in lib/human/capabilities.ts (its spec and result schemas)`,
      );
  }
  const slaCodes = new Set(file.slas.map((s) => s.code));
  const capIds = new Set(file.capabilities.map((c) => c.id));
  const cities = new Map(file.cities.map((c) => [`${c.country_iso}/${c.city_slug}`, c]));
  if (cities.size !== file.cities.length) throw new CatalogueError('a city is listed twice');

  // Expand: country entries for every live city of the country, then city entries replace them.
  const expanded = new Map<
    string,
    { capability: string; country: string; city: string; sla: string; price: number }[]
  >();
  const ordered = [...file.prices].sort(
    (a, b) => Number(a.city_slug !== undefined) - Number(b.city_slug !== undefined),
  );
  for (const p of ordered) {
    if (!capIds.has(p.capability))
      throw new CatalogueError(`a price names capability ${p.capability}, which the file does not list`);
    for (const sla of Object.keys(p.sla))
      if (!slaCodes.has(sla)) throw new CatalogueError(`a price names SLA ${sla}, which the file does not list`);
    const targets =
      p.city_slug === undefined
        ? file.cities.filter((c) => c.country_iso === p.country_iso && c.live)
        : [
            cities.get(`${p.country_iso}/${p.city_slug}`) ??
              fail(`a price names city ${p.country_iso}/${p.city_slug}, which the file does not list`),
          ];
    for (const city of targets) {
      if (!city.live) continue; // a city that is not live serves nothing, whatever its prices
      expanded.set(
        `${p.capability}|${city.country_iso}|${city.city_slug}`,
        Object.entries(p.sla).map(([sla, price]) => ({
          capability: p.capability,
          country: city.country_iso,
          city: city.city_slug,
          sla,
          price,
        })),
      );
    }
  }
  const prices = [...expanded.values()].flat();

  return db
    .transaction(() => {
      statements(db).deletePrices.run();
      statements(db).deleteCities.run();
      statements(db).retireCapabilities.run();
      statements(db).retireSlas.run();
      const cap = statements(db).upsertCapability;
      file.capabilities.forEach((c, i) => cap.run(c.id, c.title, c.description, i));
      const sla = statements(db).upsertSla;
      file.slas.forEach((s, i) => sla.run(s.code, s.title, s.hours, i));
      const city = statements(db).insertCity;
      for (const c of file.cities)
        city.run(c.country_iso, c.city_slug, c.name, c.latitude, c.longitude, c.live ? 1 : 0);
      const price = statements(db).insertPrice;
      for (const p of prices) price.run(p.capability, p.country, p.city, p.sla, p.price);
      const version = Number(statements(db).version.get() ?? 0) + 1;
      const meta = statements(db).setMeta;
      meta.run('version', String(version));
      meta.run('currency', file.currency);
      meta.run('loaded_at', String(now));
      meta.run('source_sha256', createHash('sha256').update(raw).digest('hex'));
      return {
        version,
        capabilities: file.capabilities.length,
        slas: file.slas.length,
        cities: file.cities.length,
        live_cities: file.cities.filter((c) => c.live).length,
        prices: prices.length,
      };
    })
    .immediate();
}

function fail(message: string): never {
  throw new CatalogueError(message);
}

export type { CatalogueReads };

function readSnapshot(db: Db, version: string): CatalogueReads {
  const currency = String(statements(db).currency.get() ?? 'EUR');
  const capabilities = statements(db).capabilities.all() as CapabilityRow[];
  const slas = statements(db).slas.all() as SlaRow[];
  const cities = statements(db).cities.all() as CityRow[];
  const prices = statements(db).prices.all() as PriceRow[];
  const capabilityById = new Map(capabilities.map((c) => [c.id, c]));
  const slaByCode = new Map(slas.map((x) => [x.code, x]));
  const cityByKey = new Map(cities.map((c) => [`${c.country_iso}/${c.city_slug}`, c]));
  const priceByKey = new Map(
    prices.map((p) => [`${p.capability}|${p.country_iso}|${p.city_slug}|${p.sla}`, p.price_cents]),
  );
  return {
    version: () => version,
    currency: () => currency,
    capabilities: () => capabilities,
    capability: (id) => capabilityById.get(id),
    slas: () => slas,
    sla: (code) => slaByCode.get(code),
    city: (countryIso, citySlug) => cityByKey.get(`${countryIso}/${citySlug}`),
    cities: () => cities,
    price: (capability, countryIso, citySlug, sla) => priceByKey.get(`${capability}|${countryIso}|${citySlug}|${sla}`),
    prices: () => prices,
  };
}

/**
 * A reader of the current catalogue that keeps its snapshot and reads the tables again only when the
 * version has changed (a load here or in another process). The human service holds one
 * (db/human/service.ts); take a snapshot once per request and use it throughout.
 */
export function catalogueReader(db: Db): () => CatalogueReads {
  let snapshot: CatalogueReads | null = null;
  return () => {
    // Prepared on first use (db/statements.ts): the tables may not exist yet when the reader is made.
    const version = String(statements(db).version.get() ?? '0');
    if (snapshot?.version() !== version) snapshot = readSnapshot(db, version);
    return snapshot;
  };
}

/** The current catalogue, read once (checks and tests; the service keeps a reader). */
export const catalogue = (db: Db): CatalogueReads => catalogueReader(db)();
