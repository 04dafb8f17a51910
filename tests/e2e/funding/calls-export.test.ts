/**
 * /calls/{id}, /sources and /export end to end; status recomputed across a deadline; personal data
 * never served by any path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setSubscription } from '../../../db/accounts.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let proKey: string;
let basicKey: string;
before(async () => {
  server = await startTestServer({ inProcess: true });
  const pro = accountWithKey(server.app.db, 'funding', server.clock.ms);
  setSubscription(server.app.db, pro.account.id, 'pro', server.clock.ms);
  proKey = pro.key;
  basicKey = accountWithKey(server.app.db, 'funding', server.clock.ms).key;
});
after(() => server.cleanup());

const asPro = (path: string) => server.get(path, { 'x-api-key': proKey });
const PERSONAL = /zzpersonafisica/i;

describe('/calls/{id}', () => {
  test('every call the search lists can be read by id, with the same fields and more', async () => {
    const list = await asPro('/funding/v1/search?per_page=100');
    for (const call of list.json.data) {
      const res = await asPro(`/funding/v1/calls/${encodeURIComponent(call.id)}`);
      assert.equal(res.status, 200, call.id);
      const { projects, notices, history, attribution, ...fields } = res.json.data;
      assert.deepEqual(fields, call);
      assert.ok(Array.isArray(projects) && Array.isArray(notices) && Array.isArray(history));
      assert.ok(
        attribution.some((a: { source: string }) => a.source === call.source),
        'credits its own source',
      );
    }
  });

  test('a BDNS call lists its BOE notices: 873847 its extract published twice and the notice voiding the duplicate', async () => {
    const res = await asPro('/funding/v1/calls/bdns:873847');
    assert.deepEqual((res.json.data.notices as Array<{ id: string; kind: string }>).map((n) => [n.id, n.kind]).sort(), [
      ['BOE-B-2025-46003', 'call'],
      ['BOE-B-2025-46004', 'call'],
      ['BOE-B-2025-46495', 'modification'],
    ]);
    // Its "45 días hábiles … desde … la publicación del extracto en el BOE", counted from the extract.
    assert.equal(res.json.data.deadline, '2026-02-18');
    assert.equal(res.json.data.deadline_source.publication, 'BOE-B-2025-46003');
  });

  test('an EU call lists the CORDIS projects funded under it (trap fixtures: no real sample shares a topic)', async () => {
    const traps = await startTestServer({ inProcess: true, fundingCorpus: 'traps' });
    try {
      const res = await traps.get('/funding/v1/calls/eu:LIFE-2025-SAP-NAT');
      assert.ok(res.json.data.projects.length > 0);
      assert.ok(res.json.data.attribution.some((a: { source: string }) => a.source === 'cordis'));
    } finally {
      await traps.cleanup();
    }
  });

  test('unknown ids are 404 not_found; malformed ids 400', async () => {
    const missing = await asPro('/funding/v1/calls/eu:NO-SUCH-TOPIC');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, 'not_found');
    for (const bad of ['nope', 'cordis:1', 'eu:', `eu:${'x'.repeat(300)}`]) {
      const res = await asPro(`/funding/v1/calls/${encodeURIComponent(bad)}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.json.error, 'bad_request');
    }
    const param = await asPro('/funding/v1/calls/eu:X?verbose=1');
    assert.equal(param.status, 400);
  });
});

test('/sources lists the four sources with licence and credit', async () => {
  const res = await asPro('/funding/v1/sources');
  assert.equal(res.status, 200);
  assert.deepEqual(
    res.json.data.map((s: { code: string }) => s.code),
    ['bdns', 'boe', 'cordis', 'eu'],
  );
  for (const s of res.json.data) {
    assert.ok(s.licence && s.attribution && s.licence_url, s.code);
    assert.ok(s.records > 0, `${s.code} has records in the demo corpus`);
    assert.match(s.last_import_at, /^\d{4}-\d{2}-\d{2}T/);
  }
});

describe('/export', () => {
  test('anonymous and basic callers get 403 subscription_required', async () => {
    const anon = await server.get('/funding/v1/export');
    assert.equal(anon.status, 403);
    assert.equal(anon.json.error, 'subscription_required');
    const basic = await server.get('/funding/v1/export', { 'x-api-key': basicKey });
    assert.equal(basic.status, 403);
    assert.equal(basic.json.error, 'subscription_required');
  });

  test('pro: NDJSON of every match, the same calls as the search', async () => {
    const res = await asPro('/funding/v1/export?status=open');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/x-ndjson/);
    const lines = res.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const search = await asPro('/funding/v1/search?status=open&per_page=100');
    assert.deepEqual(lines.map((c) => c.id).sort(), search.json.data.map((c: { id: string }) => c.id).sort());
    assert.ok(lines.every((c) => c.status === 'open'));
  });

  test('pro: CSV with a header row, quoted where needed', async () => {
    const res = await asPro('/funding/v1/export?format=csv');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /text\/csv/);
    assert.match(res.headers.get('content-disposition')!, /funding-calls\.csv/);
    const [header] = res.text.split('\r\n');
    assert.equal(header!.split(',')[0], 'id');
    assert.ok(header!.split(',').includes('deadline_time'));
    const total = (await asPro('/funding/v1/search?per_page=1')).json.meta.total;
    const rows = res.text.trim().split('\r\n').length - 1;
    assert.ok(rows >= total, 'every call has a row (a row may span lines when quoted)');
  });

  test('bad export parameters are 400', async () => {
    for (const q of ['format=xml', 'per_page=10', 'q=']) {
      const res = await asPro(`/funding/v1/export?${q}`);
      assert.equal(res.status, 400, q);
    }
  });
});

test('status is recomputed across a deadline', async () => {
  server.clock.set('2026-11-22T10:00:00Z');
  const open = await asPro('/funding/v1/search?status=open&sort=deadline&per_page=100');
  const call = open.json.data.find(
    (c: { deadline: string | null; cutoffs: unknown[] }) => c.deadline && c.cutoffs.length === 1,
  );
  assert.ok(call, 'an open call with one dated deadline');
  // The day after the deadline day, at noon in any European zone, the call is closed.
  server.clock.set(`${call.deadline}T23:59:00Z`);
  server.clock.advance(12 * 3_600_000);
  const after = await asPro(`/funding/v1/calls/${encodeURIComponent(call.id)}`);
  assert.equal(after.json.data.status, 'closed');
  const stillOpen = await asPro('/funding/v1/search?status=open&per_page=100');
  assert.ok(!stillOpen.json.data.some((c: { id: string }) => c.id === call.id), 'the open filter agrees');
  // Thousands of real calls are closed: the call is looked for by its identifier among them.
  const closed = await asPro(`/funding/v1/search?status=closed&per_page=100&q=${encodeURIComponent(call.id)}`);
  assert.ok(
    closed.json.data.some((c: { id: string }) => c.id === call.id),
    'the closed filter agrees',
  );
  server.clock.set('2026-11-22T10:00:00Z');
});

test('a record about a natural person is stored but never appears in any response', async () => {
  const stored = server.app.db
    .prepare('SELECT id FROM funding_calls WHERE personal_data = 1')
    .pluck()
    .all() as string[];
  assert.ok(stored.length > 0, 'the demo corpus has a withheld record');
  const seen: string[] = [];
  seen.push((await asPro('/funding/v1/search?q=zzpersonafisica')).text);
  seen.push((await asPro('/funding/v1/search?per_page=100')).text);
  for (const status of ['open', 'closed', 'forthcoming'])
    seen.push((await asPro(`/funding/v1/search?per_page=100&status=${status}`)).text);
  seen.push((await asPro('/funding/v1/export')).text);
  seen.push((await asPro('/funding/v1/export?format=csv')).text);
  for (const id of stored) {
    const res = await asPro(`/funding/v1/calls/${encodeURIComponent(id)}`);
    assert.equal(res.status, 404, id);
    seen.push(res.text.replace(id, ''));
  }
  for (const text of seen) {
    assert.doesNotMatch(text, PERSONAL);
    for (const id of stored) assert.ok(!text.includes(`"${id}"`), `${id} not served`);
  }
  const found = await asPro('/funding/v1/search?q=zzpersonafisica');
  assert.equal(found.json.meta.total, 0);
});
