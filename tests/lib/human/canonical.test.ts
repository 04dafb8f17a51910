/** Request fingerprints for idempotency, task refs, and distances. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, fingerprint } from '../../../lib/human/canonical.ts';
import { distanceKm } from '../../../lib/human/geo.ts';
import { newTaskRef, REF_PATTERN } from '../../../lib/human/refs.ts';

test('the same order in another key order or spacing has the same fingerprint; any value change does not', () => {
  const a = {
    capability: 'human.verify',
    spec: { claim: 'x', subject: 'y' },
    location: { country_iso: 'FR', city_slug: 'paris' },
    max_price_cents: 100,
  };
  const b = JSON.parse(
    '{"max_price_cents":100,"location":{"city_slug":"paris","country_iso":"FR"},"spec":{"subject":"y","claim":"x"},"capability":"human.verify"}',
  );
  assert.equal(fingerprint(a), fingerprint(b));
  assert.equal(
    canonicalJson(a),
    '{"capability":"human.verify","location":{"city_slug":"paris","country_iso":"FR"},"max_price_cents":100,"spec":{"claim":"x","subject":"y"}}',
  );
  assert.notEqual(fingerprint(a), fingerprint({ ...a, max_price_cents: 101 }));
  assert.notEqual(fingerprint(a), fingerprint({ ...a, spec: { claim: 'x ', subject: 'y' } }));
  assert.notEqual(fingerprint([1, 2]), fingerprint([2, 1]), 'arrays keep their order');
  assert.equal(canonicalJson({ a: undefined, b: null }), '{"b":null}');
});

test('task refs are tsk_ + 20 base62 characters, and do not repeat', () => {
  // One instant for all: the random part alone must keep them apart.
  const refs = new Set(Array.from({ length: 5000 }, () => newTaskRef(1_767_225_600_000)));
  assert.equal(refs.size, 5000);
  for (const ref of refs) assert.match(ref, REF_PATTERN);
});

test('great-circle distances', () => {
  const paris = { latitude: 48.8566, longitude: 2.3522 };
  assert.equal(Math.round(distanceKm(paris, { latitude: 45.764, longitude: 4.8357 })), 391); // Paris–Lyon as the crow flies
  assert.equal(distanceKm(paris, paris), 0);
});
