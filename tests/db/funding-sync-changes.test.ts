/**
 * What a sync re-reads, counts and gives up on, against the real records (tests/helpers/funding-sources.ts):
 * a deadline extension that only the BDNS detail shows is caught before the old deadline passes;
 * BOE calls and notices are counted apart; a source that hangs is stopped at its time bound, naming
 * the URL it waited for, and one that runs long stops where it is and resumes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../db/connection.ts';
import { runFundingSync, type SourceSummary } from '../../db/funding/sync/run.ts';
import type { SourceCode } from '../../lib/funding/records.ts';
import { syncHarness } from '../helpers/funding-sync-harness.ts';

const NOW = Date.parse('2026-01-08T10:00:00Z');
const h = syncHarness('trio-sync-changes-', NOW);
const freshDb = () => h.freshDb();

const config = (env: Record<string, string> = {}) =>
  h.config({ FUNDING_SYNC_RETRIES: '1', FUNDING_SYNC_PAGE_SIZE: '10', ...env });

async function sync(
  db: Db,
  sources: SourceCode[],
  now: number,
  env: Record<string, string> = {},
  wallClock?: () => number,
): Promise<Record<string, SourceSummary>> {
  const s = await runFundingSync(db, {
    config: config(env),
    sources,
    now: () => now,
    ...(wallClock ? { wallClock } : {}),
  });
  return Object.fromEntries(s.sources.map((x) => [x.source, x]));
}

const stored = (db: Db, id: string) =>
  db.prepare('SELECT deadline, deadline_time, closes_at FROM funding_calls WHERE id = ?').get(id) as {
    deadline: string;
    deadline_time: string | null;
    closes_at: number;
  };

test('a deadline extended only in the BDNS detail is caught before the old deadline passes', async () => {
  const db = freshDb();
  await sync(db, ['bdns'], NOW);
  // 876660 (IDAE), as read on 8 January: closes 10 February at 12:00 (the hour only its textFin states).
  assert.deepEqual((({ deadline, deadline_time }) => ({ deadline, deadline_time }))(stored(db, 'bdns:876660')), {
    deadline: '2026-02-10',
    deadline_time: '12:00',
  });
  // BDNS extends it to 24 February. Its list entry, which carries no dates, does not change.
  h.fake.setDetail('876660', (d) => {
    d.fechaFinSolicitud = '2026-02-24';
    d.textFin = ', hasta las 12:00 horas del 24 de febrero de 2026, hora peninsular';
  });
  try {
    // Two days before the old deadline: its detail is due (read a month ago, 2 days left: every 12 h).
    const mark = h.fake.requests.length;
    const s = await sync(db, ['bdns'], Date.parse('2026-02-08T10:00:00Z'));
    const asked = h.fake.requests.slice(mark).map((r) => r.key);
    assert.ok(asked.includes('bdns-detail:876660'), 'the detail was read again');
    assert.deepEqual((({ deadline, deadline_time }) => ({ deadline, deadline_time }))(stored(db, 'bdns:876660')), {
      deadline: '2026-02-24',
      deadline_time: '12:00',
    });
    assert.match(
      s.bdns!.notes.join(' '),
      /re-read the details of \d+ open, forthcoming or just-closed calls: 1 changed/,
    );
    // The list entries were unchanged: no detail came from them.
    assert.equal(
      db.prepare("SELECT count(*) FROM funding_sync_items WHERE source = 'bdns' AND fingerprint = ''").pluck().get(),
      0,
    );
  } finally {
    h.fake.setDetail('876660', (d) => {
      d.fechaFinSolicitud = '2026-02-10';
      d.textFin = ', hasta las 12:00 horas del 10 de febrero de 2026, hora peninsular';
    });
  }
  db.close();
});

test('a call read before its deadline is read once more just after it; then no more', async () => {
  const db = freshDb();
  await sync(db, ['bdns'], NOW);
  const closes = stored(db, 'bdns:876660').closes_at;
  const justAfter = closes + 3_600_000;
  const mark = h.fake.requests.length;
  await sync(db, ['bdns'], justAfter);
  assert.ok(
    h.fake.requests.slice(mark).some((r) => r.key === 'bdns-detail:876660'),
    'read after the close',
  );
  const again = h.fake.requests.length;
  await sync(db, ['bdns'], justAfter + 3_600_000);
  assert.ok(!h.fake.requests.slice(again).some((r) => r.key === 'bdns-detail:876660'), 'not again');
  db.close();
});

test('BOE counts calls and notices apart: a first BOE run inserts one call per extract', async () => {
  const db = freshDb();
  const s = await sync(db, ['boe'], NOW);
  const calls = db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'boe'").pluck().get() as number;
  const notices = db.prepare('SELECT count(*) FROM funding_notices').pluck().get() as number;
  // 18 BOE items by 8 January: 17 extracts (calls; 873847's published twice) and the notice voiding
  // the duplicate. "inserted" counts the 17 calls, not the 18 notices beside them.
  assert.deepEqual([s.boe!.inserted, s.boe!.notices, calls, notices], [17, 18, 17, 18]);
  assert.equal(
    db.prepare("SELECT kind FROM funding_notices WHERE source_id = 'BOE-B-2025-46495'").pluck().get(),
    'modification',
  );
  db.close();
});

test('a source that hangs is stopped at its time bound, naming what it waited for; the others go on', async () => {
  const db = freshDb();
  h.fake.fail('boe:20251212', { delayMs: 5000 });
  const t0 = Date.now();
  const s = await sync(db, ['boe', 'cordis'], NOW, { FUNDING_SYNC_SOURCE_MAX: '1s', FUNDING_SYNC_TIMEOUT_MS: '30000' });
  assert.ok(Date.now() - t0 < 4500, `stopped after ${Date.now() - t0} ms, not after the 5 s answer`);
  assert.equal(s.boe!.status, 'failed');
  assert.match(
    s.boe!.error!,
    /^BOE sumario of 2025-12-12 \(http:\/\/127\.0\.0\.1:\d+\/boe\/sumario\/20251212\): no answer: the source's time bound \(FUNDING_SYNC_SOURCE_MAX\) was reached/,
  );
  assert.equal(s.cordis!.status, 'ok');
  db.close();
});

test('a source that runs past its time bound stops where it is, and the next run resumes there', async () => {
  const db = freshDb();
  // Real time as the sync sees it: an hour passes after the third BOE request (9, 10, 11 December).
  const start = h.fake.requests.length;
  const late = () => Date.now() + (h.fake.requests.length - start >= 3 ? 3_600_000 : 0);
  const s1 = await sync(db, ['boe'], NOW, { FUNDING_SYNC_SOURCE_MAX: '20m' }, late);
  assert.deepEqual([s1.boe!.status, s1.boe!.complete], ['ok', false]);
  assert.match(
    s1.boe!.notes.join(' '),
    /stopped at the time bound \(FUNDING_SYNC_SOURCE_MAX\) before BOE sumario of 2025-12-12/,
  );
  const mark = JSON.parse(
    db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string,
  ).day;
  assert.equal(mark, '2025-12-11');
  const next = h.fake.requests.length;
  const s2 = await sync(db, ['boe'], NOW);
  assert.deepEqual([s2.boe!.status, s2.boe!.complete], ['ok', true]);
  assert.equal(h.fake.requests.slice(next)[0]!.key, 'boe:20251212');
  db.close();
});
