/**
 * What an operator and a client see when the database stops taking writes while trio serves (issue
 * 28), in process: the connection is switched to query_only, so every write fails with SQLite's own
 * SQLITE_READONLY, as a file made read-only under a running server does (the fault drill in
 * tests/reliability/fault-drill.test.ts does it to a real file system). Writes are refused with 503
 * and not counted, reads go on, /readyz and /metrics say so, the log says it once, and the server
 * comes back by itself when writes work again.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { ConsoleClient } from '../helpers/console.ts';
import { accountWithKey } from '../helpers/keys.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { verifyOrder } from './human/harness.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
let key: string;
before(async () => {
  server = await startTestServer({ inProcess: true, outageLogEveryMs: 300 });
  key = accountWithKey(server.app.db, 'human', server.clock.now(), { environment: 'test' }).key;
});
after(() => server.cleanup());

const order = () =>
  server.request('POST', '/human/v1/tasks', {
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: 's' } })),
  });
const tasks = () => server.request('GET', '/human/v1/tasks', { headers: { authorization: `Bearer ${key}` } });
const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));
const logged = () => server.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
const refs = () => server.app.db.prepare('SELECT ref FROM human_tasks ORDER BY ref').pluck().all() as string[];

test('the database refusing writes: 503 uncounted, reads served, /readyz and /metrics tell, one log line, back by itself', async () => {
  const placed = await order();
  assert.equal(placed.status, 201, placed.text);
  const acknowledged = [placed.json.data.ref as string];
  assert.equal((await server.get('/readyz')).status, 200);

  server.app.db.pragma('query_only = ON'); // every write now fails with SQLITE_READONLY
  const before = remaining(await tasks());
  const refused = await order();
  assert.equal(refused.status, 503, refused.text);
  assert.deepEqual(Object.keys(refused.json.error), ['code', 'message']);
  assert.equal(refused.json.error.code, 'service_unavailable');
  assert.equal(refused.headers.get('retry-after'), '5');
  assert.equal(remaining(refused), before, 'the refusal shows the allowance as it was: not counted');
  for (let i = 0; i < 20; i++) assert.equal((await order()).status, 503);
  assert.equal(remaining(await tasks()), before - 1, 'twenty-one refused orders cost nothing: only this read counted');
  assert.equal((await server.get('/impact/v1/scenarios')).status, 200, 'reads are served');

  const ready = await server.get('/readyz');
  assert.equal(ready.status, 503);
  assert.equal(ready.json.status, 'unavailable');
  assert.match(ready.json.reason, /^database is down: SQLITE_READONLY: attempt to write a readonly database/);
  assert.equal(ready.json.dependencies.database.state, 'down');
  assert.equal(ready.json.dependencies.database.refused, 21);
  const metrics = (await server.get('/metrics')).text;
  assert.match(metrics, /^trio_dependency_up\{dependency="database"\} 0$/m);
  assert.match(metrics, /^trio_requests_refused_total\{cause="database"\} 21$/m);
  assert.match(metrics, /^trio_requests_refused_total\{cause="redis"\} 0$/m, 'every cause has its series');

  const lines = logged();
  assert.equal(
    lines.filter((l) => l.msg === 'dependency down').length,
    1,
    'the outage is one line, not one per request',
  );
  const down = lines.find((l) => l.msg === 'dependency down')!;
  assert.equal(down.dependency, 'database');
  assert.match(String(down.effect), /free disk space/);
  const access = lines.filter((l) => l.msg === 'request' && l.status === 503);
  assert.equal(access.length, 22, 'one access line per refused request (and the /readyz)');
  assert.ok(access.filter((l) => l.path === '/human/v1/tasks').every((l) => l.refused === 'database' && !('err' in l)));
  assert.ok(!lines.some((l) => l.level === 50 || l.msg === 'database unavailable'), 'no stack trace, no fault');

  server.app.db.pragma('query_only = OFF');
  await until(async () => (await server.get('/readyz')).status === 200, '/readyz ready again without a restart');
  const back = logged().find((l) => l.msg === 'dependency up again')!;
  assert.deepEqual([back.dependency, back.refused], ['database', 21]);
  const again = await order();
  assert.equal(again.status, 201);
  acknowledged.push(again.json.data.ref as string);
  assert.deepEqual(refs(), acknowledged.sort(), 'every acknowledged order is stored, and nothing of the refused ones');
  assert.match((await server.get('/metrics')).text, /^trio_dependency_up\{dependency="database"\} 1$/m);
});

test('the console refuses a sign-up the database cannot take with a 503 page, not a fault', async () => {
  const client = new ConsoleClient(server);
  const form = await client.get('/console/sign-up');
  assert.equal(form.status, 200);
  const accounts = () => server.app.db.prepare('SELECT count(*) FROM accounts').pluck().get() as number;
  const before = accounts();
  server.app.db.pragma('query_only = ON');
  try {
    const res = await client.post('/console/sign-up', {
      email: 'outage@example.org',
      password: 'a long enough password',
      csrf: ConsoleClient.csrf(form.text),
    });
    assert.equal(res.status, 503);
    assert.match(res.text, /nothing was changed\. Try again in a moment/);
  } finally {
    server.app.db.pragma('query_only = OFF');
  }
  assert.equal(accounts(), before);
  assert.ok(!logged().some((l) => l.msg === 'unhandled fault in the console'), 'no stack trace');
  const line = logged().findLast((l) => l.msg === 'request' && l.path === '/console/sign-up')!;
  assert.deepEqual([line.status, line.refused], [503, 'database']);
});
