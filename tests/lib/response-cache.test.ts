/** The one response cache (lib/response-cache.ts): expiry, entry budget, byte budget, LRU order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ResponseCache } from '../../lib/response-cache.ts';

// A value is its size in bytes ('x' repeated); an entry's size is the value's plus its key's.
type Step =
  | { set: string; bytes: number; validUntil?: number }
  | { get: string; now?: number; hit: boolean; why?: string }
  | { has: string[]; now?: number; is: boolean[]; why?: string }
  | { size: number }
  | { clear: true };

interface Case {
  name: string;
  maxEntries?: number;
  maxBytes?: number;
  steps: Step[];
}

const cases: Case[] = [
  {
    name: 'served until its instant, never at or after it',
    steps: [
      { set: 'a', bytes: 4, validUntil: 1000 },
      { get: 'a', now: 999, hit: true },
      { get: 'a', now: 1000, hit: false },
      { get: 'a', now: 500, hit: false, why: 'an expired entry is gone for good' },
      { size: 0 },
    ],
  },
  {
    name: 'has: valid at now, not counted as a use',
    maxEntries: 2,
    steps: [
      { set: 'a', bytes: 1, validUntil: 10 },
      { set: 'b', bytes: 1 },
      { has: ['a', 'b'], now: 9, is: [true, true] },
      { has: ['a', 'b'], now: 10, is: [false, true] },
      { set: 'c', bytes: 1 },
      { has: ['a', 'b', 'c'], now: 0, is: [false, true, true], why: 'a was only looked at: least recently used' },
    ],
  },
  {
    name: 'entry budget: the least recently used goes first',
    maxEntries: 2,
    steps: [
      { set: 'a', bytes: 1 },
      { set: 'b', bytes: 1 },
      { get: 'a', hit: true },
      { set: 'c', bytes: 1 },
      { get: 'b', hit: false },
      { get: 'a', hit: true },
      { size: 2 },
    ],
  },
  {
    name: 'byte budget: the oldest go until the rest fits; larger than the budget: not kept',
    maxBytes: 12,
    steps: [
      { set: 'a', bytes: 5 },
      { set: 'b', bytes: 5 },
      { set: 'c', bytes: 1 },
      { has: ['a', 'b', 'c'], is: [false, true, true] },
      { set: 'huge', bytes: 9 },
      { get: 'huge', hit: false, why: '9 + 4 bytes is more than the whole budget' },
      { has: ['b', 'c'], is: [true, true], why: 'an entry not kept pushes nothing out' },
      { clear: true },
      { size: 0 },
    ],
  },
  {
    name: 'LRU order under the byte budget; a replaced entry counts its new size only; the new entry stays',
    maxBytes: 100,
    steps: [
      { set: 'a', bytes: 30 },
      { set: 'b', bytes: 30 },
      { set: 'c', bytes: 30 },
      { get: 'a', hit: true },
      { set: 'd', bytes: 30 },
      { has: ['a', 'b', 'c', 'd'], is: [true, false, true, true], why: 'b, the least recently used, went' },
      { set: 'd', bytes: 10 },
      { set: 'e', bytes: 40 }, // 31 + 31 + 11 + 41 > 100: c (least recently used) goes
      { has: ['a', 'c', 'd', 'e'], is: [true, false, true, true] },
      { set: 'f', bytes: 95 },
      { has: ['a', 'd', 'e', 'f'], is: [false, false, false, true], why: 'the entry just stored stays' },
      { size: 1 },
      { set: 'huge', bytes: 200 },
      { get: 'huge', hit: false, why: 'larger than the bound: not kept' },
    ],
  },
  {
    name: 'an entry budget of 0 keeps nothing',
    maxEntries: 0,
    steps: [{ set: 'a', bytes: 1 }, { get: 'a', hit: false }, { size: 0 }],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const cache = new ResponseCache<string>({
      sizeOf: (v) => v.length,
      ...(c.maxEntries !== undefined ? { maxEntries: c.maxEntries } : {}),
      ...(c.maxBytes !== undefined ? { maxBytes: c.maxBytes } : {}),
    });
    c.steps.forEach((step, i) => {
      const at = `step ${i + 1}`;
      if ('set' in step) cache.set(step.set, 'x'.repeat(step.bytes), step.validUntil);
      else if ('get' in step) {
        const got = cache.get(step.get, step.now ?? 0);
        assert.equal(got !== undefined, step.hit, `${at}: get ${step.get}${step.why ? ` (${step.why})` : ''}`);
      } else if ('has' in step) {
        const got = step.has.map((k) => cache.has(k, step.now ?? 0));
        assert.deepEqual(got, step.is, `${at}: has ${step.has.join(', ')}${step.why ? ` (${step.why})` : ''}`);
      } else if ('size' in step) assert.equal(cache.size, step.size, `${at}: size`);
      else cache.clear();
    });
  });
}

test('a hit returns the value stored, measured by sizeOf', () => {
  const cache = new ResponseCache<{ body: Buffer }>({ sizeOf: (v) => v.body.length, maxBytes: 10 });
  const value = { body: Buffer.from('12345') };
  cache.set('k', value);
  assert.equal(cache.get('k', 0), value);
  cache.set('l', { body: Buffer.from('1234') }); // 6 + 5 > 10: k goes
  assert.equal(cache.get('k', 0), undefined);
});
