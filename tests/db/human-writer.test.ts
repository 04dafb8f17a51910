/**
 * The group-commit writer and compare-and-set transitions, on a real SQLite file: jobs of one turn
 * share one durable commit, a failing job rolls back alone, the fsync mode is raised only around the
 * commit; two transitions from the same read cannot both apply.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAccount, createKey } from '../../db/accounts.ts';
import { openDatabase, type Db } from '../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../db/human/catalogue.ts';
import { insertTask, taskEvents, transition } from '../../db/human/tasks.ts';
import { GroupCommitWriter } from '../../db/human/writer.ts';
import { migrate } from '../../db/migrate.ts';
import { isHumanError } from '../../lib/human/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-writer-'));
let db: Db;
const NOW = Date.parse('2026-11-22T10:00:00Z');
before(() => {
  db = openDatabase(join(dir, 'w.sqlite'));
  migrate(db);
  loadCatalogue(db, DEMO_CATALOGUE, NOW);
  db.exec('CREATE TABLE scratch (n INTEGER NOT NULL UNIQUE)');
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('jobs submitted together commit together, each in its own savepoint', async () => {
  const writer = new GroupCommitWriter(db);
  const syncDuring: number[] = [];
  const jobs = Array.from({ length: 20 }, (_, i) =>
    writer.submit(() => {
      syncDuring.push(db.pragma('synchronous', { simple: true }) as number);
      db.prepare('INSERT INTO scratch (n) VALUES (?)').run(i === 7 ? 3 : i); // job 7 collides with job 3
      return i;
    }),
  );
  const results = await Promise.allSettled(jobs);
  assert.equal(results.filter((r) => r.status === 'rejected').length, 1);
  assert.match(String((results[7] as PromiseRejectedResult).reason), /UNIQUE/);
  assert.deepEqual(
    db.prepare('SELECT n FROM scratch ORDER BY n').pluck().all(),
    Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 7),
  );
  assert.equal(writer.stats.batches, 1);
  assert.equal(writer.stats.largestBatch, 20);
  assert.ok(
    syncDuring.every((s) => s === 2),
    'synchronous=FULL while committing orders',
  );
  assert.equal(db.pragma('synchronous', { simple: true }), 1, 'back to NORMAL for everything else');
});

test('after close, the writer refuses new jobs and has committed the queued ones', async () => {
  const writer = new GroupCommitWriter(db);
  const queued = writer.submit(() => db.prepare('INSERT INTO scratch (n) VALUES (100)').run());
  writer.close();
  await queued;
  assert.equal(db.prepare('SELECT count(*) FROM scratch WHERE n = 100').pluck().get(), 1);
  await assert.rejects(
    writer.submit(() => 1),
    /stopping/,
  );
});

test('a transition is a compare-and-set: from one read, only the first applies', () => {
  const account = createAccount(db, 'cas@example.org', NOW);
  const key = createKey(db, { accountId: account.id, service: 'human', name: 'k', environment: 'test' }, NOW).row;
  const task = insertTask(
    db,
    {
      ref: 'tsk_AAAAAAAAAAAAAAAAAAAA',
      account_id: account.id,
      key_id: key.id,
      environment: 'test',
      capability: 'human.verify',
      spec: '{}',
      country_iso: 'FR',
      city_slug: 'paris',
      sla: 'standard',
      price_cents: 100,
      max_price_cents: 100,
      currency: 'EUR',
      sandbox_plan: 'deliver',
      created_at: NOW,
      due_at: NOW + 86_400_000,
      accept_by: null,
      metadata: null,
      client_reference: null,
    },
    1000,
  );
  const accepted = transition(db, task, 'accept', {
    now: NOW + 1,
    actor: 'worker:1',
    delayMs: 1000,
    set: { worker_account_id: account.id },
  });
  assert.equal(accepted.status, 'dispatched');
  assert.equal(accepted.version, 2);
  // A second caller that read the task before the first wrote it:
  assert.throws(
    () => transition(db, task, 'cancel', { now: NOW + 2, actor: 'client', delayMs: 1000 }),
    (e: unknown) => isHumanError(e) && e.code === 'invalid_state' && /dispatched now/.test(e.message),
  );
  assert.throws(
    () => transition(db, accepted, 'deliver', { now: NOW + 3, actor: 'x', delayMs: 1000 }),
    /is dispatched; deliver is allowed only when in_progress/,
  );
  assert.deepEqual(
    taskEvents(db, task.id).map((e) => [e.event, e.from_status, e.to_status, e.actor]),
    [
      ['order', null, 'pending', 'client'],
      ['accept', 'pending', 'dispatched', 'worker:1'],
    ],
  );
});
