import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExpiringCache } from '../../lib/expiring-cache.ts';

test('entries are served until their instant, never at or after it', () => {
  const cache = new ExpiringCache();
  cache.set('a', 'body', 1000);
  assert.equal(cache.get('a', 999), 'body');
  assert.equal(cache.get('a', 1000), undefined);
  assert.equal(cache.get('a', 500), undefined, 'an expired entry is gone for good');
});

test('the least recently used entry goes first when entries or bytes run out', () => {
  const byCount = new ExpiringCache(2);
  byCount.set('a', 'x', Infinity);
  byCount.set('b', 'x', Infinity);
  byCount.get('a', 0);
  byCount.set('c', 'x', Infinity);
  assert.equal(byCount.get('b', 0), undefined);
  assert.equal(byCount.get('a', 0), 'x');
  assert.equal(byCount.size, 2);
  const byBytes = new ExpiringCache(100, 10);
  byBytes.set('a', '12345', Infinity);
  byBytes.set('b', '12345', Infinity);
  byBytes.set('c', '1', Infinity);
  assert.equal(byBytes.get('a', 0), undefined);
  byBytes.set('huge', 'x'.repeat(11), Infinity);
  assert.equal(byBytes.get('huge', 0), undefined, 'larger than the whole budget: not kept');
  byBytes.clear();
  assert.equal(byBytes.size, 0);
});
