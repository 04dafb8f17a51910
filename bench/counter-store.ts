/**
 * Child of `npm run bench -- cluster`, measuring one way of sharing counters. argv:
 *  - `ipc`: forks a cluster-like pair (this process as primary with a RateLimiter, one child asking
 *    over IPC with IpcLimiter) and reports the round trip one at a time and the throughput batched;
 *  - `sqlite <file>`: counts in the SQLite file for 2 s (an IMMEDIATE transaction per count);
 *  - `redis <url>`: counts through RedisLimiter (the Lua script) for 2 s, 64 in flight.
 * Reports to its parent over IPC.
 */
import { fork } from 'node:child_process';
import { openDatabase } from '../db/connection.ts';
import { RateLimiter } from '../lib/rate-limit.ts';
import { answerWorker, IpcLimiter, type ToPrimary } from '../db/counters/ipc.ts';

const [mode, path] = process.argv.slice(2);
const LIMITS = { perMinute: 1e9, perDay: null };

if (mode === 'sqlite') {
  const db = openDatabase(path!);
  db.exec('CREATE TABLE IF NOT EXISTS counters (bucket TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  const bump = db.prepare(
    'INSERT INTO counters (bucket, n) VALUES (?, 1) ON CONFLICT (bucket) DO UPDATE SET n = n + 1',
  );
  const count = db.transaction((bucket: string) => bump.run(bucket));
  const end = Date.now() + 2000;
  let n = 0;
  for (; Date.now() < end; n++) count.immediate(`b${n % 50}`);
  db.close();
  process.send!({ perSecond: n / 2 });
} else if (mode === 'redis') {
  const { RedisLimiter } = await import('../db/counters/redis.ts');
  const redis = new RedisLimiter(path!);
  await redis.ready();
  const now = Date.now();
  let n = 0;
  const end = Date.now() + 2000;
  await Promise.all(
    Array.from({ length: 64 }, async (_, i) => {
      for (; Date.now() < end; n++) await redis.take(`bench:${i % 50}`, { perMinute: 1e9, perDay: 1e12 }, now);
    }),
  );
  await redis.close();
  process.send!({ perSecond: n / 2 });
} else if (mode === 'ipc') {
  const limiter = new RateLimiter(() => 0);
  const child = fork(import.meta.filename, ['ipc-worker'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('message', (msg: ToPrimary | { result: unknown }) => {
    if ('result' in msg) {
      process.send!(msg.result);
      child.kill();
      return;
    }
    const answer = answerWorker(msg, limiter, () => {});
    if (answer) child.send(answer);
  });
} else if (mode === 'ipc-worker') {
  const ipc = new IpcLimiter();
  const now = Date.now();
  let t = process.hrtime.bigint();
  for (let i = 0; i < 2000; i++) await ipc.take(`b${i % 50}`, LIMITS, now);
  const roundTripUs = Number(process.hrtime.bigint() - t) / 1e3 / 2000;
  t = process.hrtime.bigint();
  let done = 0;
  // 32 requests at a time, as 32 connections would bring them.
  for (let round = 0; round < 2000; round++)
    await Promise.all(Array.from({ length: 32 }, (_, i) => ipc.take(`b${i}`, LIMITS, now).then(() => done++)));
  const perSecond = done / (Number(process.hrtime.bigint() - t) / 1e9);
  ipc.stop();
  process.send!({ result: { roundTripUs, perSecond } });
}
