/**
 * Match tiers (lib/funding/search-tiers.ts) on a small index built like the real one: full matches
 * first, then partial ones by how many units and which, each call in exactly one tier; phrases, OR,
 * -term and the region keep their meaning in every tier.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expandQuery } from '../../../lib/funding/search-expand.ts';
import { compileRegion, parseSearch } from '../../../lib/funding/search-query.ts';
import { compileTiers, MAX_PARTIAL_TIERS } from '../../../lib/funding/search-tiers.ts';
import { shippedVocabulary } from '../../../lib/funding/vocabulary.ts';
import { miniFundingFts } from '../../helpers/funding-fts.ts';

function index() {
  const fts = miniFundingFts();
  fts.add(1, { title: 'Ayudas a la pesca artesanal', region: 'Galicia', language: 'es' });
  fts.add(2, { title: 'Subvenciones para la pesca', body: 'vino y aceite', region: 'Andalucía', language: 'es' });
  fts.add(3, { title: 'Premio de poesía', region: 'Galicia', language: 'es' });
  fts.add(4, { title: 'Ayudas al vino artesanal', region: 'Galicia', language: 'es' });
  fts.add(5, { title: 'Energía solar para cooperativas', language: 'es' });
  return fts;
}

const tiersOf = (q: string, weights?: number[], region?: string) =>
  compileTiers(expandQuery(parseSearch(q), shippedVocabulary(), null), region ? compileRegion(region) : null, {
    weights,
  });

test('full matches first; then calls holding most words, the rarer word first; each call in one tier', () => {
  const fts = index();
  // pesca: 2 calls, artesanal: 2, vino: 2. Weights say artesanal is the rarest.
  const t = tiersOf('pesca artesanal vino', [1, 3, 2]);
  assert.deepEqual(t.units, ['pesca', 'artesanal', 'vino']);
  const read = t.tiers.map((tier) => ({ rows: fts.rows(tier.match), missing: tier.missing.map((i) => t.units[i]) }));
  const seen = read.flatMap((r) => r.rows);
  assert.equal(new Set(seen).size, seen.length, 'no call in two tiers');
  assert.deepEqual(new Set(seen), new Set([1, 2, 4]));
  // No call holds all three: the full tiers are empty; two of three first, the heavier pair first.
  assert.deepEqual(
    read.slice(0, t.fullTiers).flatMap((r) => r.rows),
    [],
  );
  const partial = read.slice(t.fullTiers).filter((r) => r.rows.length > 0);
  assert.deepEqual(partial, [
    { rows: [4], missing: ['pesca'] }, // artesanal vino: 3 + 2
    { rows: [1], missing: ['vino'] }, // pesca artesanal: 1 + 3
    { rows: [2], missing: ['artesanal'] }, // pesca vino: 1 + 2
  ]);
});

test('phrases, OR, -term and the region hold in every tier', () => {
  const fts = index();
  const all = (q: string, region?: string) =>
    tiersOf(q, undefined, region).tiers.flatMap((tier) => fts.rows(tier.match));
  // The phrase is one unit: 2 holds pesca and vino, not the phrase: a partial match for vino alone.
  const phrase = tiersOf('"pesca artesanal" vino');
  const held = phrase.tiers
    .map((tier) => ({ rows: fts.rows(tier.match), missing: tier.missing.map((i) => phrase.units[i]) }))
    .filter((h) => h.rows.length > 0);
  assert.deepEqual(held, [
    { rows: [1], missing: ['vino'] },
    { rows: [2, 4], missing: ['"pesca artesanal"'] },
  ]);
  assert.ok(
    !all('pesca artesanal -vino').includes(2) && !all('pesca artesanal -vino').includes(4),
    '-vino in every tier',
  );
  assert.deepEqual(all('pesca artesanal', 'Galicia').sort(), [1, 4], 'the region in every tier');
  assert.deepEqual(all('(poesía OR solar) artesanal').sort(), [1, 3, 4, 5], 'an OR group is one unit');
  // One unit: no partial tiers.
  assert.equal(tiersOf('pesca').tiers.length, tiersOf('pesca').fullTiers);
});

test('partial tiers: sets of n−1 units down to half of them, at most MAX_PARTIAL_TIERS', () => {
  const t = tiersOf('uno dos tres cuatro cinco seis siete ocho');
  const sizes = t.tiers.slice(t.fullTiers).map((tier) => 8 - tier.missing.length);
  assert.ok(sizes.length <= MAX_PARTIAL_TIERS);
  assert.deepEqual(
    [...sizes].sort((a, b) => b - a),
    sizes,
    'more units first',
  );
  assert.equal(sizes[0], 7);
  assert.equal(tiersOf('uno dos').tiers.length - tiersOf('uno dos').fullTiers, 2);
});
