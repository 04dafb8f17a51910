/**
 * Quotes and pricing as pure rules, over a small catalogue in memory (the real one is read by
 * db/human/catalogue.ts): the price and due time of a served place, refusals with alternatives nearest
 * first, and the signed quote_id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isHumanError } from '../../../lib/human/errors.ts';
import { HUMAN_STATUS } from '../../../routes/human/errors.ts';
import { checkTerms, quote, QUOTE_VALID_MS, readQuote, signQuote } from '../../../lib/human/quote.ts';
import type { CatalogueReads, CityRow, PriceRow } from '../../../lib/human/rows.ts';

const CITIES: CityRow[] = [
  { country_iso: 'FR', city_slug: 'paris', name: 'Paris', latitude: 48.8566, longitude: 2.3522, live: 1 },
  { country_iso: 'FR', city_slug: 'lyon', name: 'Lyon', latitude: 45.764, longitude: 4.8357, live: 1 },
  { country_iso: 'FR', city_slug: 'lille', name: 'Lille', latitude: 50.6292, longitude: 3.0573, live: 0 },
  { country_iso: 'ES', city_slug: 'madrid', name: 'Madrid', latitude: 40.4168, longitude: -3.7038, live: 1 },
];
const PRICES: PriceRow[] = [
  { capability: 'human.verify', country_iso: 'FR', city_slug: 'paris', sla: 'standard', price_cents: 1800 },
  { capability: 'human.verify', country_iso: 'FR', city_slug: 'paris', sla: 'rush', price_cents: 3200 },
  { capability: 'human.verify', country_iso: 'FR', city_slug: 'lyon', sla: 'standard', price_cents: 1500 },
  { capability: 'human.verify', country_iso: 'ES', city_slug: 'madrid', sla: 'standard', price_cents: 1400 },
  { capability: 'human.verify', country_iso: 'ES', city_slug: 'madrid', sla: 'week', price_cents: 900 },
];
const SLAS = [
  { code: 'rush', title: 'Rush', hours: 4 },
  { code: 'standard', title: 'Standard', hours: 24 },
  { code: 'week', title: 'Week', hours: 168 },
];
const CAPS = [
  { id: 'human.verify', title: 'Verify', description: 'Look and say' },
  { id: 'human.photo', title: 'Photo', description: 'A photo' },
];

const catalogue: CatalogueReads = {
  version: () => '1',
  currency: () => 'EUR',
  capabilities: () => CAPS,
  capability: (id) => CAPS.find((c) => c.id === id),
  slas: () => SLAS,
  sla: (code) => SLAS.find((s) => s.code === code),
  city: (c, s) => CITIES.find((x) => x.country_iso === c && x.city_slug === s),
  cities: () => CITIES,
  price: (cap, c, s, sla) =>
    PRICES.find((p) => p.capability === cap && p.country_iso === c && p.city_slug === s && p.sla === sla)?.price_cents,
  prices: () => PRICES,
};

const NOW = Date.parse('2026-11-22T09:00:00Z');
const SECRET = Buffer.from('a test secret of thirty-two bytes!');
const ask = (city: string, sla: string, country = city === 'madrid' ? 'ES' : 'FR', capability = 'human.verify') =>
  quote(catalogue, { capability, location: { country_iso: country, city_slug: city }, sla }, NOW, SECRET, () => 1);

test('a served place and SLA: its price, due after the SLA hours, held for 15 minutes', () => {
  const cases: Array<[string, string, number, number]> = [
    ['paris', 'standard', 1800, 24],
    ['paris', 'rush', 3200, 4],
    ['lyon', 'standard', 1500, 24],
    ['madrid', 'week', 900, 168],
  ];
  for (const [city, sla, price, hours] of cases) {
    const q = ask(city, sla);
    assert.equal(q.status, 'quoted', `${city} ${sla}`);
    if (q.status !== 'quoted') continue;
    assert.deepEqual([q.price_cents, q.currency, q.due_in_s], [price, 'EUR', hours * 3600]);
    assert.equal(q.due_at, new Date(NOW + hours * 3_600_000).toISOString());
    assert.equal(q.expires_at, new Date(NOW + QUOTE_VALID_MS).toISOString());
    assert.deepEqual(readQuote(q.quote_id, SECRET), {
      capability: 'human.verify',
      country_iso: q.location.country_iso,
      city_slug: city,
      sla,
      price_cents: price,
      expires_at: NOW + QUOTE_VALID_MS,
    });
  }
});

test("an SLA not served in a served city: that city's other SLAs first, then the nearest cities with the SLA asked", () => {
  const q = ask('lyon', 'rush');
  assert.equal(q.status, 'refused');
  if (q.status !== 'refused') return;
  assert.equal(q.reason, 'sla_not_served');
  assert.deepEqual(
    q.alternatives.map((a) => [a.location.city_slug, a.sla, a.price_cents]),
    [
      ['lyon', 'standard', 1500],
      ['paris', 'rush', 3200],
    ],
  );
  assert.equal(q.alternatives[1]!.distance_km, 391, 'Lyon–Paris as the crow flies');
});

test('a place not served: the nearest served cities, same SLA preferred, with their distance from the place asked', () => {
  const lille = ask('lille', 'standard');
  assert.equal(lille.status, 'refused');
  if (lille.status !== 'refused') return;
  assert.equal(lille.reason, 'location_not_served');
  assert.match(lille.message, /not served in Lille \(FR\/lille\) yet/);
  assert.deepEqual(
    lille.alternatives.map((a) => a.location.city_slug),
    ['paris', 'lyon', 'madrid'],
  );
  assert.ok(lille.alternatives.every((a) => a.sla === 'standard'));
  const unknown = ask('nowhere', 'standard');
  assert.equal(unknown.status, 'refused');
  if (unknown.status !== 'refused') return;
  assert.match(unknown.message, /FR\/nowhere is not a city we serve/);
  // No coordinates for an unknown city: distances from the centroid of the country's known cities.
  assert.deepEqual(
    unknown.alternatives.map((a) => a.location.city_slug),
    ['paris', 'lyon', 'madrid'],
  );
  const photo = ask('paris', 'standard', 'FR', 'human.photo');
  assert.equal(photo.status, 'refused');
  if (photo.status === 'refused')
    assert.deepEqual(photo.alternatives, [], 'a capability served nowhere has no alternative');
});

test('an unknown capability or SLA is a mistake (400 naming the known ones), not a refusal', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['human.fly', 'standard', /Unknown capability 'human.fly'. Known: human.verify, human.photo/],
    ['human.verify', 'yesterday', /Unknown sla 'yesterday'. Known: rush, standard, week/],
  ];
  for (const [capability, sla, message] of cases) {
    assert.throws(
      () => checkTerms(catalogue, capability, sla),
      (e: unknown) => isHumanError(e) && HUMAN_STATUS[e.code] === 400 && message.test(e.message),
    );
  }
  assert.deepEqual(checkTerms(catalogue, 'human.verify', 'week'), { hours: 168 });
});

test('a quote_id is ours only if its signature matches: tampered, foreign or malformed ids read as null', () => {
  const terms = {
    capability: 'human.verify',
    country_iso: 'FR',
    city_slug: 'paris',
    sla: 'standard',
    price_cents: 1800,
    expires_at: NOW + QUOTE_VALID_MS,
  };
  const id = signQuote(terms, SECRET);
  assert.match(id, /^qt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{32}$/);
  assert.deepEqual(readQuote(id, SECRET), terms);
  const cheaper = signQuote({ ...terms, price_cents: 1 }, Buffer.from('another secret'));
  const [payload] = cheaper.slice(3).split('.');
  const cases = [
    signQuote(terms, Buffer.from('another secret')),
    `qt_${payload}.${id.split('.')[1]}`, // a cheaper payload under the real signature
    id.slice(0, -1),
    id.replace('qt_', 'qx_'),
    '',
    `qt_${Buffer.from('not json').toString('base64url')}.${'a'.repeat(32)}`,
  ];
  for (const bad of cases) assert.equal(readQuote(bad, SECRET), null, bad);
});
