/** The impact API's validators: ETags and If-None-Match (its cache is lib/response-cache.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { etagOf, ifNoneMatch } from '../../../routes/impact/cache.ts';

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
