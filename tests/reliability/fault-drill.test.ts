/**
 * The fault drill (issue 28): trio serving orders and reads with its counters in Redis and its file on
 * a small file system of its own (tests/reliability/faults/disk.ts says how real each fault is here),
 * while the parts it needs fail one after another and come back:
 *
 *   Redis killed, then started again · Redis frozen (SIGSTOP), then woken · the database file made
 *   read-only, then writable · the disk full, then freed · slow clients (headers a byte at a time, a
 *   body that stalls, a client that sends and never reads).
 *
 * For each: no acknowledged write is lost and nothing refused is stored; every refusal is a clear 503
 * in the service's shape with Retry-After, never a 500 or a hang; /readyz is 503 naming the part while
 * it is down, /metrics has its state and the refusals by cause; the log says it once when it goes
 * down, every interval while it stays down and once when it is back (no line per request, no stack
 * trace); and service returns by itself, with no restart. After the freeze, the next minute's and
 * day's allowance are whole. docs/operations.md, "When something fails", is this drill in words.
 *
 * `npm test` runs one round of each at the CI size; `npm run test:reliability -- --long` runs three,
 * with longer outages and more traffic, and records the figures under test-results/reliability/.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApp, type RunningApp } from '../../app.ts';
import { createAccount, createKey } from '../../db/accounts.ts';
import { openDatabase } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { migrate } from '../../db/migrate.ts';
import { readConfig } from '../../lib/config.ts';
import { verifyOrder } from '../e2e/human/harness.ts';
import {
  NO_REDIS_NOTE,
  redisInstalled,
  send,
  startRedis,
  tally,
  until,
  type Answer,
  type RedisProcess,
} from '../scaling/helpers.ts';
import { RawConnection } from './abuse/raw-client.ts';
import { drillDisk, type DrillDisk } from './faults/disk.ts';
import { bySize, recordFigures } from './size.ts';

const skip = redisInstalled ? false : NO_REDIS_NOTE;
const ROUNDS = bySize(1, 3);
const OUTAGE_MS = bySize(1500, 4000);
const STILL_DOWN_EVERY_MS = 500;

let disk: DrillDisk;
let redis: RedisProcess;
let redisPort: number;
let app: RunningApp;
let path: string;
let sandboxKey: string;
const logs: Array<Record<string, unknown>> = [];
const figures: Record<string, unknown[]> = {};

before(async () => {
  if (skip) return;
  disk = drillDisk();
  path = `${disk.dir}/trio.sqlite`;
  const db = openDatabase(path);
  migrate(db);
  loadCatalogue(db, DEMO_CATALOGUE);
  const account = createAccount(db, 'drill@example.org', Date.now());
  sandboxKey = createKey(
    db,
    { accountId: account.id, service: 'human', name: 'drill', environment: 'test' },
    Date.now(),
  ).key;
  db.close();
  redis = await startRedis();
  redisPort = Number(new URL(redis.url).port);
  const config = readConfig({
    PORT: '0',
    DATABASE_PATH: path,
    DEMO: 'off',
    LOG_LEVEL: 'info',
    REDIS_URL: redis.url,
    TRUST_PROXY: 'loopback',
  });
  // One key places every order: its minute limit lifted (the drill is about faults, not limits);
  // the anonymous limits the allowance checks use stay the documents'.
  config.rateLimits.human.key = { perMinute: 1e9, perDay: null };
  app = await startApp(config, {
    logDestination: new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    }),
    outageLogEveryMs: STILL_DOWN_EVERY_MS,
    limits: { headersTimeoutMs: 1500, requestTimeoutMs: 3000, checkIntervalMs: 250 },
  });
});

after(async () => {
  await app?.stop();
  await redis?.stop();
  disk?.cleanup();
  if (!skip) recordFigures('fault-drill', { how: disk.how, rounds: ROUNDS, outageMs: OUTAGE_MS, ...figures });
});

// ---------------------------------------------------------------------------------------------
// Traffic: orders (durable writes) and reads, each request on its own connection, every answer kept.

const acknowledged = new Set<string>();
const refusedKeys: string[] = [];
let address = 0;
/** A fresh client address each time (TRUST_PROXY=loopback): the anonymous minute limits stay out of the way. */
const anyone = () => ({ 'x-forwarded-for': `10.28.${(++address >> 8) & 255}.${address & 255}` });

async function order(): Promise<Answer> {
  const idempotencyKey = randomUUID();
  const res = await send(`${app.url}/human/v1/tasks`, {
    method: 'POST',
    body: JSON.stringify(verifyOrder()),
    headers: {
      authorization: `Bearer ${sandboxKey}`,
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
    },
  });
  if (res.status === 201) acknowledged.add((JSON.parse(res.body) as { data: { ref: string } }).data.ref);
  else refusedKeys.push(idempotencyKey);
  return res;
}

const read = () => send(`${app.url}/funding/v1/sources`, { headers: anyone() });

/** Orders and reads side by side for `ms`: every answer, by kind. */
async function traffic(ms: number): Promise<{ orders: Answer[]; reads: Answer[] }> {
  const orders: Answer[] = [];
  const reads: Answer[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const [o, r] = await Promise.all([order(), read()]);
    orders.push(o);
    reads.push(r);
    await sleep(bySize(20, 5));
  }
  return { orders, reads };
}

const ready = () => send(`${app.url}/readyz`);
const metric = async (series: string) => {
  const text = (await send(`${app.url}/metrics`)).body;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
};
const lines = (msg: string, dependency?: string) =>
  logs.filter((l) => l.msg === msg && (dependency === undefined || l.dependency === dependency));

/** A 503 as the services write it: their error shape, service_unavailable, Retry-After. */
function assertRefusal(a: Answer, what: string): void {
  assert.equal(a.status, 503, `${what}: ${a.status} ${a.body}`);
  assert.equal(a.headers['retry-after'], '5', what);
  const body = JSON.parse(a.body) as { error: string | { code: string } };
  assert.equal(typeof body.error === 'string' ? body.error : body.error.code, 'service_unavailable', what);
}

interface Fault {
  name: string;
  /** The part that fails: Redis's counters (every counted request refused) or the database (writes refused, reads served). */
  part: 'redis' | 'database';
  break(): Promise<void> | void;
  restore(): Promise<void> | void;
  /** Checked while the fault lasts, after the traffic. */
  during?(): Promise<void>;
  /** Checked once it is back. */
  afterwards?(): Promise<void>;
}

/** Each round of a fault (`make` builds it for the round): the drill of it. */
async function drill(make: (round: number) => Fault): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) await drillOnce(make(round), round);
}

/** One fault: the steady state, the outage as clients, /readyz, /metrics and the log see it, the recovery. */
async function drillOnce(fault: Fault, round: number): Promise<void> {
  const name = `${fault.name} (round ${round + 1})`;
  const { part } = fault;
  const readsServed = part === 'database';
  await until(async () => (await ready()).status === 200, `${name}: ready before`);
  const steady = await traffic(200);
  assert.deepEqual(tally(steady.orders), { 201: steady.orders.length }, `${name}: orders before`);
  const downBefore = lines('dependency down', part).length;
  const stillBefore = lines('dependency still down', part).length;
  const refusedBefore = await metric(`trio_requests_refused_total{cause="${part}"}`);
  const faultsBefore = logs.filter((l) => Number(l.level) >= 50).length;

  await fault.break();
  const during = await traffic(OUTAGE_MS);
  for (const o of during.orders) assertRefusal(o, `${name}: an order`);
  if (readsServed) assert.deepEqual(tally(during.reads), { 200: during.reads.length }, `${name}: reads`);
  else for (const r of during.reads) assertRefusal(r, `${name}: a read`);
  const health = await ready();
  assert.equal(health.status, 503, `${name}: /readyz`);
  const said = JSON.parse(health.body) as {
    reason: string;
    dependencies: Record<string, { state: string; refused: number }>;
  };
  assert.match(said.reason, new RegExp(`^${part} is down: `), name);
  assert.equal(said.dependencies[part]!.state, 'down', name);
  const refusedNow = during.orders.length + (readsServed ? 0 : during.reads.length);
  assert.ok(said.dependencies[part]!.refused >= refusedNow, `${name}: refused ${JSON.stringify(said)}`);
  assert.equal(await metric(`trio_dependency_up{dependency="${part}"}`), 0, name);
  assert.ok(
    (await metric(`trio_requests_refused_total{cause="${part}"}`)) - refusedBefore >= refusedNow,
    `${name}: refusals by cause`,
  );
  await fault.during?.();
  // The outage lasts until its 'still down' line has been written (every STILL_DOWN_EVERY_MS).
  await until(() => lines('dependency still down', part).length > stillBefore, `${name}: still down, said`);

  const restoredAt = Date.now();
  await fault.restore();
  await until(async () => (await ready()).status === 200, `${name}: ready again without a restart`);
  const recoveryMs = Date.now() - restoredAt;
  const back = await traffic(200);
  assert.deepEqual(tally(back.orders), { 201: back.orders.length }, `${name}: orders after`);
  assert.deepEqual(tally(back.reads), { 200: back.reads.length }, `${name}: reads after`);
  await fault.afterwards?.();

  assert.equal(lines('dependency down', part).length, downBefore + 1, `${name}: down, said once`);
  const up = lines('dependency up again', part).at(-1)!;
  assert.ok(Number(up.refused) >= refusedNow, `${name}: up again, with the count`);
  assert.equal(logs.filter((l) => Number(l.level) >= 50).length, faultsBefore, `${name}: no fault, no stack trace`);
  (figures[fault.name] ??= []).push({
    ordersRefused: during.orders.length,
    readsServed: readsServed ? during.reads.length : 0,
    requestsRefused: refusedNow,
    recoveryMs,
    cause: said.reason,
  });
}

// ---------------------------------------------------------------------------------------------

const sql = () => app.db;

describe('fault drill', { skip }, () => {
  test('Redis killed, then started again', () =>
    drill(() => ({
      name: 'redis killed',
      part: 'redis',
      break: async () => {
        redis.child.kill('SIGKILL');
        await redis.stop();
      },
      restore: async () => {
        redis = await startRedis(redisPort);
      },
    })));

  test('Redis frozen (SIGSTOP), then woken: refused meanwhile, and the next minute and day whole', () =>
    drill((round) => {
      const day = { 'x-forwarded-for': `10.29.${round}.1` }; // impact: 100 a day per address
      const minute = { 'x-forwarded-for': `10.29.${round}.2` }; // human, no key: 60 a minute per address
      const burst = (n: number, path: string, headers: Record<string, string>) =>
        Promise.all(Array.from({ length: n }, () => send(`${app.url}${path}`, { headers })));
      return {
        name: 'redis frozen',
        part: 'redis',
        break: () => void redis.child.kill('SIGSTOP'),
        during: async () => {
          const refused = [
            ...(await burst(20, '/impact/v1/scenarios', day)),
            ...(await burst(20, '/human/v1/capabilities', minute)),
          ];
          assert.deepEqual(tally(refused), { 503: 40 });
        },
        restore: () => void redis.child.kill('SIGCONT'),
        afterwards: async () => {
          assert.deepEqual(
            tally(await burst(101, '/impact/v1/scenarios', day)),
            { 200: 100, 429: 1 },
            "the day's 100 are whole",
          );
          assert.deepEqual(
            tally(await burst(61, '/human/v1/capabilities', minute)),
            { 200: 60, 429: 1 },
            "the minute's 60 are whole",
          );
        },
      };
    }));

  test('the database file made read-only, then writable', (t) => {
    t.diagnostic(`read-only file: ${disk.how.readOnly} (${disk.how.fileSystem})`);
    const files = [path, `${path}-wal`];
    return drill(() => ({
      name: 'database read-only',
      part: 'database',
      break: () => disk.makeReadOnly(sql(), files),
      restore: () => disk.makeWritable(sql(), files),
    }));
  });

  test('the disk full, then freed', (t) => {
    t.diagnostic(`full disk: ${disk.how.full} (${disk.how.fileSystem})`);
    return drill(() => ({
      name: 'disk full',
      part: 'database',
      break: () => disk.fill(sql()),
      restore: () => disk.free(sql()),
    }));
  });

  test('slow clients: cut after their timeouts, nothing of theirs stored, everyone else served, still ready', async () => {
    const port = Number(new URL(app.url).port);
    const timeoutsBefore = await metric('trio_http_client_errors_total{reason="request_timeout"}');
    const trickling = Array.from({ length: 3 }, () => new RawConnection(port));
    const headers = 'GET /funding/v1/sources HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.30.0.1\r\n\r\n';
    const trickles = trickling.map((c) => c.trickle(headers, 200));
    const stalled = new RawConnection(port);
    const body = JSON.stringify(verifyOrder());
    await stalled.write(
      `POST /human/v1/tasks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sandboxKey}\r\nContent-Type: application/json\r\nIdempotency-Key: ${randomUUID()}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 40)}`,
    );
    // A client that asks for fifty answers on one connection and reads none of them.
    const deaf = new RawConnection(port);
    await deaf.write(
      `GET /funding/v1/search?per_page=100 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.30.0.2\r\n\r\n`.repeat(50),
    );
    const tasksBefore = sql().prepare('SELECT count(*) FROM human_tasks').pluck().get() as number;

    const served = await traffic(bySize(2000, 5000));
    assert.deepEqual(tally(served.orders), { 201: served.orders.length }, 'orders while slow clients hang on');
    assert.deepEqual(tally(served.reads), { 200: served.reads.length }, 'reads too');
    assert.equal((await ready()).status, 200, 'a slow client is not a failed part: still ready');
    for (const c of [...trickling, stalled])
      assert.ok(await c.waitForClose(10_000), 'cut after headersTimeout / requestTimeout, not held open');
    await Promise.all(trickles);
    for (const c of trickling) assert.match(c.text, /^HTTP\/1\.1 408 Request Timeout/, 'told why');
    assert.equal(
      sql().prepare('SELECT count(*) FROM human_tasks').pluck().get(),
      tasksBefore + served.orders.length,
      'the stalled order is not stored',
    );
    assert.ok(
      (await metric('trio_http_client_errors_total{reason="request_timeout"}')) - timeoutsBefore >= 4,
      '/metrics counts the timed-out clients',
    );
    deaf.destroy();
    (figures['slow clients'] ??= []).push({ ordersServed: served.orders.length, readsServed: served.reads.length });
  });

  test('no acknowledged write lost, nothing refused stored, one log line per change', () => {
    const stored = new Set(sql().prepare('SELECT ref FROM human_tasks').pluck().all() as string[]);
    const lost = [...acknowledged].filter((ref) => !stored.has(ref));
    assert.deepEqual(lost, [], 'every acknowledged order is in the file');
    assert.equal(stored.size, acknowledged.size, 'and no refused one');
    const keyed = sql().prepare('SELECT count(*) FROM human_idempotency WHERE idempotency_key = ?').pluck();
    assert.equal(refusedKeys.filter((k) => (keyed.get(k) as number) > 0).length, 0, 'no refused order kept its key');
    const warnings = logs.filter((l) => l.level === 40);
    const refused = logs.filter((l) => l.msg === 'request' && l.status === 503).length;
    assert.ok(refused > 100, `${refused} refusals`);
    assert.ok(
      warnings.every((l) => ['dependency down', 'dependency still down'].includes(String(l.msg))),
      `only state lines warn: ${[...new Set(warnings.map((l) => l.msg))].join(', ')}`,
    );
    figures.totals = [{ acknowledged: acknowledged.size, refusedRequests: refused, warnLines: warnings.length }];
  });
});
