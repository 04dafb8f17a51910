/**
 * `npm run bench -- keyed-read [--rounds N] [--no-write]`
 *
 * The authenticated result read (GET /human/v1/tasks/{ref}/result with a key) in process, no socket:
 * trio's own work a request through the adapter's dispatch, with the human service's router reached
 * three ways on the same app, database and key (issue 37):
 *  - itty-router's own `fetch` (how it was reached before issue 37);
 *  - the grouped walk (lib/http/route-walk.ts), each statement its own read transaction;
 *  - the walk with the request's reads in one read transaction (db/read-together.ts: what trio ships).
 * The variants run in turns, `--rounds` rounds (400) of 100 requests, the fastest round of each: on a
 * shared machine a short round nobody preempted is the measure of the work itself, where requests/s
 * are not. Then what SQLite's read transaction costs by itself, which every request that reads pays
 * once: the key generation's one-row read alone, inside an open transaction, and wrapped in BEGIN/COMMIT.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../app.ts';
import type { Db } from '../db/connection.ts';
import { readTogether } from '../db/read-together.ts';
import { createDispatch, type Inbound } from '../lib/http/adapter.ts';
import { trustNothing } from '../lib/http/client-address.ts';
import { routeWalk } from '../lib/http/route-walk.ts';
import type { ApiRequest } from '../lib/http/types.ts';
import { readConfig } from '../lib/config.ts';
import { liftedLimits } from '../lib/limits.ts';
import { humanApi } from '../routes/human/index.ts';
import { BENCH_ORDER, prepareOrders } from './human-orders.ts';
import { fmt, loadSentence, machine, option, printAndWrite } from './load.ts';

/** Requests a round: short enough that on a loaded machine some rounds run unpreempted. */
const BATCH = 100;

const inbound = (method: string, target: string, headers: Record<string, string>, body = ''): Inbound => ({
  method,
  target,
  headers: { host: '127.0.0.1', ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
  socketAddress: '127.0.0.1',
  encrypted: false,
  body: {
    async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
      if (body) yield Buffer.from(body);
    },
  },
  closed: () => false,
});

export async function run(args: string[]): Promise<void> {
  const rounds = option(args, '--rounds', 400);
  const loadBefore = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-keyed-'));
  const app = await startApp(
    {
      ...readConfig({ PORT: '0', DATABASE_PATH: join(dir, 'trio.sqlite'), DEMO: 'off', LOG_LEVEL: 'silent' }),
      rateLimits: liftedLimits(),
    },
    { listen: false },
  );
  try {
    const headers = prepareOrders(app.db);
    const placed = await app.dispatch(
      inbound('POST', '/human/v1/tasks', { ...headers, 'idempotency-key': randomUUID() }, BENCH_ORDER),
    );
    const ref = (JSON.parse(String(placed.body)) as { data: { ref: string } }).data.ref;
    const read = inbound('GET', `/human/v1/tasks/${ref}/result`, { authorization: headers.authorization! });
    const human = humanApi(app.ctx);
    const dispatchOf = (fetch: (req: ApiRequest) => unknown) =>
      createDispatch({ fetch, log: app.ctx.log, clock: Date.now, trustProxy: trustNothing, bodyLimitBytes: 1_048_576 });
    const variants = {
      itty: dispatchOf((req) => human.fetch(req)),
      walk: dispatchOf(routeWalk(human)),
      together: dispatchOf(readTogether(app.db, routeWalk(human))),
    };
    for (const dispatch of Object.values(variants)) {
      const out = await dispatch(read);
      if (out.status !== 200) throw new Error(`the result answered ${out.status}: ${String(out.body)}`);
    }
    const best = { itty: Infinity, walk: Infinity, together: Infinity };
    for (let round = 0; round < rounds; round++)
      for (const [name, dispatch] of Object.entries(variants) as Array<[keyof typeof best, typeof variants.itty]>) {
        const started = performance.now();
        for (let i = 0; i < BATCH; i++) (await dispatch(read)).finish();
        best[name] = Math.min(best[name], ((performance.now() - started) * 1000) / BATCH);
      }
    const lock = readTransactionCost(app.db, rounds);
    const sqlite = app.db.prepare('SELECT sqlite_version()').pluck().get() as string;
    const report = [
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine(sqlite)}. In process, no socket; the variants in turns, ${rounds} rounds of ${BATCH} requests, the fastest round of each. ${loadSentence(loadBefore, loadavg()[0]!)}`,
      '',
      '| GET /human/v1/tasks/{ref}/result with a key, the router reached through | trio’s own work µs/request |',
      '| --- | ---: |',
      `| itty-router's own \`fetch\` (before issue 37) | ${fmt(best.itty, 2)} |`,
      `| the grouped walk, a read transaction per statement | ${fmt(best.walk, 2)} |`,
      `| the grouped walk, the request's reads in one read transaction (shipped) | ${fmt(best.together, 2)} |`,
      '',
      `What SQLite's read transaction costs by itself (WAL: a shared lock on the index file taken and released, system calls), the key generation's one-row read timed three ways: as its own transaction ${fmt(lock.alone, 2)} µs; inside a transaction already open ${fmt(lock.inside, 2)} µs; with BEGIN and COMMIT around it, as the request does, ${fmt(lock.wrapped, 2)} µs.`,
    ].join('\n');
    printAndWrite(args, 'keyed-read', '## The authenticated result in process (npm run bench -- keyed-read)', report);
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The key generation's read timed alone, inside an open read transaction, and wrapped as a request wraps it. */
function readTransactionCost(db: Db, rounds: number): { alone: number; inside: number; wrapped: number } {
  const generation = db.prepare('SELECT generation FROM api_key_changes WHERE id = 1').pluck();
  const [begin, commit] = [db.prepare('BEGIN DEFERRED'), db.prepare('COMMIT')];
  const fastest = (read: () => void) => {
    let best = Infinity;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      for (let i = 0; i < BATCH; i++) read();
      best = Math.min(best, ((performance.now() - started) * 1000) / BATCH);
    }
    return best;
  };
  const alone = fastest(() => generation.get());
  begin.run();
  const inside = fastest(() => generation.get());
  commit.run();
  const wrapped = fastest(() => {
    begin.run();
    generation.get();
    commit.run();
  });
  return { alone, inside, wrapped };
}
