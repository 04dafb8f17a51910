/**
 * Rule 4: a figure that fails its own checks produces a 500, never a number. Each case corrupts one
 * row of a published run behind the server's back (each on an endpoint not asked for before, since
 * responses of a run are cached once checked), asks for it, and sees a 500 `figure_check_failed` whose
 * body carries no number, with the reason in the log. Then: the database closed is a 503.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startImpactServer, type ImpactServer } from './harness.ts';

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
});
after(() => server.cleanup());

const PRODUCT = "run_id = 1 AND subject_type = 'product'";

// [what, table, SET clause that corrupts, WHERE clause of the rows, the request that must fail, a fragment of the logged reason]
// Each corruption is undone after its case, so that no case sees another's.
const CASES: Array<[string, string, string, string, string, string]> = [
  [
    'interval out of order',
    'impact_figures',
    'low = high * 2',
    `${PRODUCT} AND subject_key = 'smartphone' AND metric = 'deaths' AND basis = 'per_unit'`,
    '/product/smartphone',
    'interval out of order',
  ],
  [
    'a negative value',
    'impact_figures',
    'low = -1',
    `${PRODUCT} AND subject_key = 'laptop' AND metric = 'injuries' AND basis = 'per_1000_eur'`,
    '/product/laptop',
    'negative',
  ],
  [
    'not finite',
    'impact_figures',
    'high = 9e999',
    `${PRODUCT} AND subject_key = 'tablet' AND metric = 'deaths' AND basis = 'per_kg'`,
    '/product/tablet',
    'not finite',
  ],
  [
    'a better grade than its interval allows',
    'impact_figures',
    "grade = 'ROBUST', central = mean",
    `${PRODUCT} AND subject_key = 'bicycle' AND metric = 'deaths' AND basis = 'per_unit'`,
    '/product/bicycle',
    'graded ROBUST',
  ],
  [
    'a central value on an INDICATIVE figure',
    'impact_figures',
    'central = mean',
    `${PRODUCT} AND subject_key = 'petrol-car' AND basis = 'per_kg' AND metric = 'deaths'`,
    '/products?category=vehicles',
    'INDICATIVE figure carries a central value',
  ],
  [
    'a central value that is not the mean',
    'impact_figures',
    'central = central * 1.01',
    "run_id = 1 AND subject_type = 'material' AND subject_key = 'copper' AND metric = 'deaths'",
    '/material/copper',
    'not the mean',
  ],
  [
    'a breakdown that no longer sums to its headline',
    'impact_contributions',
    'mean = mean * 1.5',
    "run_id = 1 AND product = 'e-bike' AND metric = 'deaths' AND route = 'material' AND dimension = 'channel' AND seq = 1",
    '/product/e-bike/explain',
    'parts add up to',
  ],
  [
    'a spend row',
    'impact_spend',
    'median = high * 3',
    "run_id = 1 AND code = '04' AND metric = 'deaths'",
    '/spend?category=04',
    'interval out of order',
  ],
  [
    'a reach row',
    'impact_reach',
    'low = high + 1',
    "run_id = 1 AND subject_type = 'channel' AND subject_key = 'C2' AND rank = 1 AND metric = 'deaths'",
    '/channel/C2',
    'reach channel C2 deaths #1',
  ],
  [
    'draws that do not match the run',
    'impact_draws',
    'draws = substr(draws, 1, 80)',
    "run_id = 1 AND subject_type = 'product' AND subject_key = 'jeans' AND metric = 'deaths'",
    '/compare?a=jeans&b=t-shirt',
    'stored, run 1 made 500',
  ],
  [
    'a current run that is not validated',
    'impact_runs',
    "status = 'failed'",
    'id = 5',
    '/country/FRA?scenario=S-CONS',
    'not validated',
  ],
];

/** Corrupts rows, runs fn, and puts every column of those rows back. */
async function corrupted(table: string, set: string, where: string, fn: () => Promise<void>) {
  const db = server.app.db;
  const before = db.prepare(`SELECT rowid AS _rowid, * FROM ${table} WHERE ${where}`).all() as Array<
    Record<string, unknown>
  >;
  assert.ok(before.length > 0, `${table} WHERE ${where} selects a row`);
  assert.ok(db.prepare(`UPDATE ${table} SET ${set} WHERE ${where}`).run().changes > 0);
  try {
    await fn();
  } finally {
    for (const { _rowid, ...row } of before) {
      const cols = Object.keys(row);
      db.prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE rowid = ?`).run(
        ...cols.map((c) => row[c]),
        _rowid,
      );
    }
  }
}

describe('a figure that fails its checks is a 500, never a number', () => {
  for (const [what, table, set, where, path, reason] of CASES) {
    test(what, () =>
      corrupted(table, set, where, async () => {
        const res = await server.api(path);
        assert.equal(res.status, 500, `${path}: ${res.text.slice(0, 300)}`);
        assert.equal(res.json.error.code, 'figure_check_failed');
        const id = res.headers.get('x-request-id')!;
        assert.doesNotMatch(res.text.replace(id, ''), /\d\.\d|e-\d/, 'no number in the body');
        assert.ok(res.json.error.detail.includes(id), 'the detail quotes the request id');
        const line = server.logs.find((l) => l.includes(id) && l.includes('failed its checks'));
        assert.ok(line, 'logged with the request id');
        assert.ok(line.includes(reason), `the log says why: ${line}`);
      }),
    );
  }

  test('the same requests answer again once the rows are what the run wrote', async () => {
    for (const [, , , , path] of CASES) assert.equal((await server.api(path)).status, 200, path);
  });
});

test('the database unavailable is a 503', async () => {
  server.app.db.close();
  for (const path of ['/products', '/product/steel', '/nope']) {
    const res = await server.api(path);
    assert.equal(res.status, 503, `${path}: ${res.text}`);
    assert.equal(res.json.error.code, 'database_unavailable');
    assert.equal(res.headers.get('retry-after'), '30');
  }
});
