/**
 * `serve --workers 2` as operators run it (a child process, the real port, the real file): the
 * primary's counters are exact across workers, a revoked key is refused by every worker, a worker
 * killed under a load of durable orders loses no acknowledged order and is replaced, and SIGTERM
 * drains every worker. (BENCHMARKS.md measures the speed; no timing is asserted here.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createAccount, createKey, revokeKey } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { loadDemoPeople } from '../../db/human/demo-people.ts';
import { ledgerViolations } from '../../db/human/invariants.ts';
import { credit } from '../../db/human/ledger.ts';
import { migrate } from '../../db/migrate.ts';
import type { ServeProcess } from '../helpers/serve-process.ts';
import { verifyOrder } from '../e2e/human/harness.ts';
import { send, serve, tally, workerPids, type Answer } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-cluster-'));
const path = join(dir, 'trio.sqlite');
let cluster: ServeProcess;
const humanKeys: string[] = [];
let impactKey: { key: string; id: number };
let idempotencyKey: { key: string; accountId: number };
let sandboxKey: string;

before(async () => {
  const db = openDatabase(path);
  migrate(db);
  loadCatalogue(db, DEMO_CATALOGUE);
  const now = Date.now();
  loadDemoPeople(db, now); // someone on duty in every live city: live orders are taken
  // Orders are limited to 120 a minute per key: eight keys (eight accounts) carry the load.
  for (let i = 0; i < 8; i++) {
    const account = createAccount(db, `cluster${i}@example.org`, now);
    humanKeys.push(createKey(db, { accountId: account.id, service: 'human', name: 'k', environment: 'live' }, now).key);
    db.transaction(() => credit(db, account.id, 10_000_000, 'top-up', now)).immediate();
  }
  const buyer = createAccount(db, 'idempotent@example.org', now);
  idempotencyKey = {
    key: createKey(db, { accountId: buyer.id, service: 'human', name: 'k', environment: 'live' }, now).key,
    accountId: buyer.id,
  };
  db.transaction(() => credit(db, buyer.id, 100_000, 'top-up', now)).immediate();
  sandboxKey = createKey(db, { accountId: buyer.id, service: 'human', name: 'sandbox', environment: 'test' }, now).key;
  const owner = createAccount(db, 'impact@example.org', now);
  const created = createKey(db, { accountId: owner.id, service: 'impact', name: 'k' }, now);
  impactKey = { key: created.key, id: created.row.id };
  db.close();
  cluster = await serve({ DATABASE_PATH: path, SANDBOX_DELAY_MS: '200', TRUST_PROXY: 'loopback' }, ['--workers', '2']);
  // Both workers log as they start listening, and the primary once all listen: the three lines reach
  // its stdout in any order, so wait for all of them (up to 10 s) before the first test reads them.
  const primaryLine = () => cluster.output().includes('"msg":"trio is serving"');
  for (let i = 0; i < 200 && (workerPids(cluster.output()).length < 2 || !primaryLine()); i++)
    await new Promise((r) => setTimeout(r, 50));
});
/** Each test counts under an address of its own (TRUST_PROXY=loopback takes X-Forwarded-For). */
const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });
after(async () => {
  if (cluster && cluster.child.exitCode === null) await cluster.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --workers 2', () => {
  test('two workers serve the port, and the primary said so once', () => {
    assert.equal(workerPids(cluster.output()).length, 2);
    assert.equal(
      cluster
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"trio is serving"')).length,
      1,
    );
  });

  test('500 parallel requests across the workers against 100 a day per address → exactly 100', async () => {
    const answers = await Promise.all(
      Array.from({ length: 500 }, () => send(`${cluster.url}/impact/v1/scenarios`, { headers: from('203.0.113.1') })),
    );
    assert.deepEqual(tally(answers), { 200: 100, 429: 400 });
    const remaining = answers
      .filter((a) => a.status === 200)
      .map((a) => Number(a.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 100 }, (_, i) => i),
      'each remaining count 99…0 exactly once: one counter, not one per worker',
    );
  });

  test('a revoked key is refused by every worker on its next request', async () => {
    const auth = from('203.0.113.2', { authorization: `Bearer ${impactKey.key}` });
    for (let i = 0; i < 4; i++)
      assert.equal((await send(`${cluster.url}/impact/v1/scenarios`, { headers: auth })).status, 200);
    const db = openDatabase(path);
    revokeKey(db, impactKey.id, Date.now()); // as `key revoke` does, from another process
    db.close();
    // New connections, so that round robin hands them to every worker in turn.
    const after = await Promise.all(
      Array.from({ length: 8 }, () => send(`${cluster.url}/impact/v1/scenarios`, { headers: auth })),
    );
    assert.deepEqual(tally(after), { 401: 8 });
  });

  test("/metrics answers for the whole cluster: every worker's requests summed by the primary", async () => {
    const text = (await send(`${cluster.url}/metrics`)).body;
    const impact = [...text.matchAll(/^trio_http_requests_total\{[^}]*service="impact"[^}]*\} (\d+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    assert.equal(impact, 500 + 4 + 8, 'the impact requests of the tests above, across both workers');
  });

  test('one Idempotency-Key sent 30 times at once across the workers creates one order and holds its price once', async () => {
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        send(`${cluster.url}/human/v1/tasks`, {
          method: 'POST',
          body: JSON.stringify(verifyOrder()),
          headers: {
            authorization: `Bearer ${idempotencyKey.key}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    assert.ok(created.length >= 1, JSON.stringify(tally(answers)));
    assert.ok(
      answers.every((a) => a.status === 201 || a.status === 409),
      `201 (the order or its replay) or 409 in flight: ${JSON.stringify(tally(answers))}`,
    );
    const refs = new Set(created.map((a) => (JSON.parse(a.body) as { data: { ref: string } }).data.ref));
    assert.equal(refs.size, 1, 'every 201 is the same order');
    assert.equal(
      created.filter(
        (a) => a.headers['idempotent-replayed'] === undefined || a.headers['idempotent-replayed'] === 'false',
      ).length,
      1,
      'one original, the rest replays',
    );
    const db = openDatabase(path, { readonly: true });
    try {
      assert.equal(
        db.prepare('SELECT count(*) FROM human_tasks WHERE account_id = ?').pluck().get(idempotencyKey.accountId),
        1,
      );
      assert.deepEqual(ledgerViolations(db), []);
    } finally {
      db.close();
    }
  });

  test('the scheduler runs (in the primary): a sandbox order moves through its steps, each once', async () => {
    const res = await send(`${cluster.url}/human/v1/tasks`, {
      method: 'POST',
      body: JSON.stringify(verifyOrder()),
      headers: {
        authorization: `Bearer ${sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
    });
    assert.equal(res.status, 201, res.body);
    const ref = (JSON.parse(res.body) as { data: { ref: string } }).data.ref;
    const db = openDatabase(path, { readonly: true });
    try {
      const status = db.prepare('SELECT status FROM human_tasks WHERE ref = ?').pluck();
      for (let i = 0; i < 300 && status.get(ref) !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(status.get(ref), 'delivered', 'dispatched, started and delivered by the scheduler (3 × 200 ms)');
      const steps = db
        .prepare(
          'SELECT to_status FROM human_task_events WHERE task_id = (SELECT id FROM human_tasks WHERE ref = ?) ORDER BY id',
        )
        .pluck()
        .all(ref) as string[];
      assert.equal(new Set(steps).size, steps.length, `each step once: ${steps.join(' → ')}`);
    } finally {
      db.close();
    }
  });

  test('a worker killed under a load of durable orders loses no acknowledged order, and is replaced', async () => {
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let stop = false;
    const client = async (key: string) => {
      for (let n = 0; n < 110 && !stop; n++) {
        let res: Answer;
        try {
          res = await send(`${cluster.url}/human/v1/tasks`, {
            method: 'POST',
            body: JSON.stringify(verifyOrder()),
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
          });
        } catch (err) {
          failures.push((err as Error).message); // the killed worker's connections reset: never acknowledged
          continue;
        }
        if (res.status === 201) acknowledged.push((JSON.parse(res.body) as { data: { ref: string } }).data.ref);
        else failures.push(`${res.status} ${res.body}`);
      }
    };
    const clients = humanKeys.map(client);
    for (let i = 0; i < 6000 && acknowledged.length < 150; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(
      acknowledged.length >= 150,
      `orders are being acknowledged (${acknowledged.length}; ${failures.slice(0, 3).join(' | ')})`,
    );
    const [victim] = workerPids(cluster.output());
    process.kill(victim!, 'SIGKILL');
    await Promise.all(clients);
    stop = true;
    assert.ok(
      acknowledged.length > 300,
      `most orders acknowledged (${acknowledged.length}; failures: ${failures.slice(0, 3).join(' | ')})`,
    );
    assert.ok(
      failures.every((f) => !/^5\d\d/.test(f)),
      `no 5xx: ${failures
        .filter((f) => /^5/.test(f))
        .slice(0, 3)
        .join(' | ')}`,
    );

    // The replacement serves: the pids now include a third worker.
    for (let i = 0; i < 100 && workerPids(cluster.output()).length < 3; i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(workerPids(cluster.output()).length, 3, 'a replacement worker started');
    assert.match(cluster.output(), /worker died; starting a replacement/);

    const db = openDatabase(path, { readonly: true });
    try {
      const stored = new Set(db.prepare('SELECT ref FROM human_tasks').pluck().all() as string[]);
      const missing = acknowledged.filter((ref) => !stored.has(ref));
      assert.deepEqual(missing, [], `${missing.length} acknowledged orders missing of ${acknowledged.length}`);
      assert.deepEqual(ledgerViolations(db), [], 'every stored order has its hold, nothing half-written');
    } finally {
      db.close();
    }
  });

  test('SIGTERM drains every worker: orders in flight are answered and stored, and the cluster exits 0', async () => {
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      send(`${cluster.url}/human/v1/tasks`, {
        method: 'POST',
        body: JSON.stringify(verifyOrder()),
        headers: {
          authorization: `Bearer ${humanKeys[i % humanKeys.length]!}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
      }).catch((err: Error) => ({ status: 0, headers: {}, body: err.message }) as Answer),
    );
    await new Promise((r) => setTimeout(r, 20));
    const exited = cluster.stop('SIGTERM');
    const answers = await Promise.all(inFlight);
    const { code } = await exited;
    assert.equal(code, 0);
    assert.match(cluster.output(), /SIGTERM: draining 2 workers/);
    const answered = answers.filter((a) => a.status !== 0);
    assert.ok(
      answered.every((a) => a.status === 201 || a.status === 429),
      `answered: ${JSON.stringify(tally(answered))}`,
    );
    const db = openDatabase(path, { readonly: true });
    try {
      const stored = new Set(db.prepare('SELECT ref FROM human_tasks').pluck().all() as string[]);
      for (const a of answered.filter((x) => x.status === 201))
        assert.ok(stored.has((JSON.parse(a.body) as { data: { ref: string } }).data.ref));
    } finally {
      db.close();
    }
  });
});
