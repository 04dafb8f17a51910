/**
 * The README's funding examples, run as written (curl lines turned into the same requests) against the
 * demo corpus of real records: each answers 200, and every search returns calls (issue 13: the first
 * example used to return nothing; issue 25: they are chosen from the real records).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseAtomFeed } from 'feedsmith';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true });
});
after(() => server.cleanup());

/** `curl [-i] URL` or `curl -G URL --data-urlencode 'k=v' -d k=v …` → the path and query curl would send. */
function curlToPath(line: string): string {
  const args = [...line.replace(/\s#.*$/, '').matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1);
  let url: URL | undefined;
  const extra: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--data-urlencode' || a === '-d') {
      const kv = args[++i]!;
      const at = kv.indexOf('=');
      extra.push([kv.slice(0, at), kv.slice(at + 1)]);
    } else if (a.startsWith('http')) url = new URL(a);
  }
  for (const [k, v] of extra) url!.searchParams.append(k, v);
  return url!.pathname + url!.search;
}

const examples = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('curl ') && l.includes('/funding/v1/') && !l.includes('X-API-Key'));

test('the README has funding examples, the first one a Spanish word finding open English calls by deadline', () => {
  assert.ok(examples.length >= 5);
  assert.equal(curlToPath(examples[0]!), '/funding/v1/search?q=pr%C3%A1cticas&status=open&sort=deadline');
});

test('the first example answers what its comment says: the EU internship offers, open, by deadline', async () => {
  const res = await server.get(curlToPath(examples[0]!));
  const calls = res.json.data as Array<{ title: string; status: string; country: string }>;
  assert.ok(calls.length >= 2);
  for (const c of calls) assert.deepEqual([c.status, c.country], ['open', 'EU']);
  assert.ok(calls.every((c) => /Internships|Scholarship/.test(c.title)));
});

for (const line of examples) {
  test(`README: ${line}`, async () => {
    server.clock.advance(1_100);
    const res = await server.get(curlToPath(line));
    assert.equal(res.status, 200, res.text.slice(0, 300));
    if (res.json?.meta) assert.ok(res.json.data.length > 0, 'returns calls');
    // A feed: an Atom feed a parser reads, with entries.
    else if (line.includes('.atom')) assert.ok((parseAtomFeed(res.text).entries ?? []).length > 0, 'a feed with calls');
  });
}
