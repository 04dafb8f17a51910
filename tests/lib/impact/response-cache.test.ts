/** The impact API's response cache: bounded by bytes, second-chance eviction; ETags and If-None-Match. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagOf, ifNoneMatch, ResponseCache } from '../../../routes/impact/cache.ts';

const entry = (bytes: number) => ({ body: Buffer.alloc(bytes), etag: '"x"', cacheControl: 'public' });

test('bounded by bytes: an entry used since the last pass gets a second chance, the new one is kept', () => {
  const cache = new ResponseCache(100);
  cache.set('a', entry(30));
  cache.set('b', entry(30));
  cache.set('c', entry(30));
  assert.ok(cache.get('a'), 'a is used');
  cache.set('d', entry(30));
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => cache.has(k)),
    [true, false, true, true],
    'b, the oldest unused, went',
  );
  cache.set('d', entry(10)); // replacing an entry counts its new size only
  cache.set('e', entry(40)); // 31 + 31 + 11 + 41 > 100: c (oldest, unused) goes
  assert.deepEqual(
    ['a', 'c', 'd', 'e'].map((k) => cache.has(k)),
    [true, false, true, true],
  );
  cache.set('f', entry(95));
  assert.deepEqual(
    ['a', 'd', 'e', 'f'].map((k) => cache.has(k)),
    [false, false, false, true],
    'the entry just stored stays',
  );
  assert.equal(cache.size, 1);
  cache.set('huge', entry(200));
  assert.equal(cache.get('huge'), undefined, 'larger than the bound: not kept');
});

test('an ETag names the run (w while withheld) and the bytes; If-None-Match compares weakly, in lists, or *', () => {
  const tag = etagOf(3, Buffer.from('{}'));
  assert.match(tag, /^"r3-[A-Za-z0-9_-]{22}"$/);
  assert.match(etagOf(null, Buffer.from('{}')), /^"w-/);
  assert.notEqual(etagOf(3, Buffer.from('{ }')), tag);
  assert.equal(ifNoneMatch(undefined, tag), false);
  assert.equal(ifNoneMatch(tag, tag), true);
  assert.equal(ifNoneMatch(`"a", W/${tag}`, tag), true);
  assert.equal(ifNoneMatch(['"a"', tag], tag), true);
  assert.equal(ifNoneMatch(' * ', tag), true);
  assert.equal(ifNoneMatch('"r3-other"', tag), false);
});
