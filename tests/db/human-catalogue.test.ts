/**
 * Loading a catalogue file: the demo one, expansion of country prices to live cities (a city entry
 * replaces its country's), refusal of bad files with a message naming the problem and nothing
 * changed, and reloading while tasks exist.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { catalogue, CatalogueError, DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { migrate } from '../../db/migrate.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-catalogue-'));
let db: Db;
before(() => {
  db = openDatabase(join(dir, 'c.sqlite'));
  migrate(db);
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const demo = JSON.parse(readFileSync(DEMO_CATALOGUE, 'utf8'));

test('the demo catalogue: three capabilities, two SLAs, prices per live city', () => {
  const summary = loadCatalogue(db, DEMO_CATALOGUE, 1);
  assert.equal(summary.capabilities, 3);
  assert.ok(summary.prices > 20);
  const cat = catalogue(db);
  assert.deepEqual(
    cat.capabilities().map((c) => c.id),
    ['human.verify', 'human.photo', 'human.document_check'],
  );
  assert.deepEqual(
    cat.slas().map((s) => [s.code, s.hours]),
    [
      ['standard', 24],
      ['express', 4],
    ],
  );
  assert.equal(cat.price('human.verify', 'FR', 'paris', 'standard'), 1800, 'the city entry');
  assert.equal(cat.price('human.verify', 'FR', 'lyon', 'standard'), 1500, 'the country entry');
  assert.equal(cat.price('human.verify', 'ES', 'valencia', 'express'), undefined, 'a city entry leaving an SLA out');
  assert.equal(cat.price('human.verify', 'FR', 'versailles', 'standard'), undefined, 'not live');
  assert.equal(cat.price('human.verify', 'IT', 'rome', 'standard'), undefined);
  assert.equal(cat.currency(), 'EUR');
});

test('bad files are refused with the reason, and the catalogue is unchanged', () => {
  const version = catalogue(db).version();
  const cases: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{', /is not JSON/],
    [
      'an unknown capability',
      { ...demo, capabilities: [...demo.capabilities, { id: 'human.teleport', title: 't', description: 'd' }] },
      /human.teleport has no definition/,
    ],
    [
      'a price for an unlisted SLA',
      { ...demo, prices: [{ capability: 'human.verify', country_iso: 'FR', sla: { overnight: 100 } }] },
      /SLA overnight/,
    ],
    [
      'a price for an unlisted city',
      {
        ...demo,
        prices: [{ capability: 'human.verify', country_iso: 'FR', city_slug: 'nice', sla: { standard: 100 } }],
      },
      /city FR\/nice/,
    ],
    [
      'a negative price',
      { ...demo, prices: [{ capability: 'human.verify', country_iso: 'FR', sla: { standard: -5 } }] },
      /prices/,
    ],
    ['a lower-case country', { ...demo, cities: [{ ...demo.cities[0], country_iso: 'fr' }] }, /cities/],
    ['a city twice', { ...demo, cities: [...demo.cities, demo.cities[0]] }, /listed twice/],
    ['an unknown field', { ...demo, discounts: [] }, /discounts/],
  ];
  for (const [name, content, message] of cases) {
    const file = join(dir, 'bad.json');
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    assert.throws(
      () => loadCatalogue(db, file),
      (e: unknown) => e instanceof CatalogueError && message.test(e.message),
      name,
    );
  }
  assert.equal(catalogue(db).version(), version);
});

test('a reload replaces prices and cities; a capability dropped from the file is inactive, not deleted', () => {
  const file = join(dir, 'smaller.json');
  writeFileSync(
    file,
    JSON.stringify({
      ...demo,
      capabilities: demo.capabilities.slice(0, 1),
      prices: demo.prices.filter((p: { capability: string }) => p.capability === 'human.verify'),
    }),
  );
  const before = Number(catalogue(db).version());
  loadCatalogue(db, file);
  assert.equal(Number(catalogue(db).version()), before + 1);
  assert.deepEqual(
    catalogue(db)
      .capabilities()
      .map((c) => c.id),
    ['human.verify'],
  );
  assert.equal(catalogue(db).capability('human.photo'), undefined);
  assert.equal(db.prepare("SELECT active FROM human_capabilities WHERE id = 'human.photo'").pluck().get(), 0);
  loadCatalogue(db, DEMO_CATALOGUE);
  assert.equal(catalogue(db).capabilities().length, 3);
});
