/**
 * A call's history as syncs record it, against the local sources' server serving the real records
 * (tests/helpers/funding-sources.ts): BDNS extends a deadline and raises a budget in a detail; the next
 * sync re-reads it and the call's history says so, in words, once; the changed_since filter finds it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callHistory } from '../../db/funding/history.ts';
import { FundingSearch } from '../../db/funding/search.ts';
import { runFundingSync } from '../../db/funding/sync/run.ts';
import { toFilters } from '../../lib/funding/search-filters.ts';
import { syncHarness } from '../helpers/funding-sync-harness.ts';

const NOW = Date.parse('2026-01-08T10:00:00Z');
const LATER = Date.parse('2026-02-08T10:00:00Z');
const h = syncHarness('trio-history-', NOW);

const sync = (db: ReturnType<typeof h.freshDb>, now: number) =>
  runFundingSync(db, {
    config: h.config({ FUNDING_SYNC_RETRIES: '1', FUNDING_SYNC_PAGE_SIZE: '10' }),
    sources: ['bdns'],
    now: () => now,
  });

test('an extension and a budget raise made by BDNS are kept in the call history by the sync that sees them', async () => {
  const db = h.freshDb();
  await sync(db, NOW);
  const id = 'bdns:876660';
  assert.deepEqual(callHistory(db, id), [], 'a first read is not a change');
  const budget = db.prepare('SELECT budget FROM funding_calls WHERE id = ?').pluck().get(id) as number;
  h.fake.setDetail('876660', (d) => {
    d.fechaFinSolicitud = '2026-02-24';
    d.textFin = ', hasta las 12:00 horas del 24 de febrero de 2026, hora peninsular';
    d.presupuestoTotal = budget + 1_000_000;
  });
  try {
    await sync(db, LATER);
    const history = callHistory(db, id);
    const money = (n: number) => `€${n.toLocaleString('en-GB')}`;
    assert.deepEqual(
      history.map((c) => [c.field, c.description, c.at]),
      [
        ['deadline', 'deadline extended from 10 February to 24 February 2026', new Date(LATER).toISOString()],
        [
          'budget',
          `budget raised from ${money(budget)} to ${money(budget + 1_000_000)}`,
          new Date(LATER).toISOString(),
        ],
      ],
    );
    assert.deepEqual(history[0]!.before, [{ date: '2026-02-10', time: '12:00' }]);
    assert.deepEqual(history[0]!.after, [{ date: '2026-02-24', time: '12:00' }]);
    assert.match(history[0]!.seen_in, /^http:\/\/127\.0\.0\.1:\d+\/.*876660/);
    // Read again, unchanged: nothing more is recorded.
    await sync(db, LATER + 13 * 3_600_000);
    assert.equal(callHistory(db, id).length, 2);
    // changed_since finds it, and only calls that changed.
    const search = new FundingSearch(db);
    const changed = search.search(toFilters({ changed_since: '2026-02-08' }, LATER + 1), 50, null);
    assert.deepEqual(
      changed.rows.map((r) => r.id),
      [id],
    );
    assert.equal(search.search(toFilters({ changed_since: '2026-02-09' }, LATER + 1), 50, null).total, 0);
  } finally {
    h.fake.setDetail('876660', (d) => {
      d.fechaFinSolicitud = '2026-02-10';
      d.textFin = ', hasta las 12:00 horas del 10 de febrero de 2026, hora peninsular';
      d.presupuestoTotal = budget;
    });
  }
  db.close();
});
