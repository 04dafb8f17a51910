/**
 * The sync as the server shows it: /funding/v1/sources (last successful sync, data age), /metrics
 * (runs, durations, failures, data age per source), the explorer's data age, and the scheduled sync
 * inside a real `main.ts serve` process (FUNDING_SYNC_EVERY).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../../db/connection.ts';
import { runFundingSync } from '../../../db/funding/sync/run.ts';
import { readFundingSyncConfig } from '../../../lib/funding/sync-config.ts';
import { startFakeSources, type FakeSources } from '../../helpers/funding-sources.ts';
import { startServeProcess } from '../../helpers/serve-process.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let fake: FakeSources;
let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true }); // the `serve` process below keeps the socket
  fake = await startFakeSources();
});
after(async () => {
  await server.cleanup();
  await fake.close();
});

// A first sync reads back to the real records' December 2025 (tests/helpers/funding-sources.ts).
const BACKFILL_DAYS = Math.ceil((Date.now() - Date.parse('2025-12-09')) / 86_400_000);
const syncEnv = () => ({
  ...fake.env,
  FUNDING_SYNC_RATE: '1000',
  FUNDING_SYNC_RETRY_BASE_MS: '5',
  FUNDING_SYNC_RETRIES: '1',
  FUNDING_SYNC_BACKFILL_DAYS: String(BACKFILL_DAYS),
  FUNDING_SYNC_CONTACT: 'ops@example.org',
});

function metric(text: string, name: string, labels: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? null : Number(line.split(' ').pop());
}

test("/sources and /metrics report each source's last sync, its runs, failures and the age of its data", async () => {
  const before = (await server.get('/funding/v1/sources')).json.data as Array<Record<string, unknown>>;
  const boe0 = before.find((s) => s.code === 'boe')!;
  assert.equal(boe0.last_sync_at, null, 'the demo was imported, never synced');
  assert.equal(boe0.data_age_seconds, null, 'a loaded file is not a sync: no age is claimed for it');
  assert.equal(
    boe0.last_import_at,
    new Date(server.clock.now()).toISOString(),
    'the demo was imported at the clock’s now',
  );

  fake.fail('bdns-list:0', { status: 503 }, { status: 503 });
  const syncedAt = server.clock.now();
  const summary = await runFundingSync(server.app.db, {
    config: readFundingSyncConfig(syncEnv()),
    sources: ['boe', 'bdns'],
    now: server.clock.now,
  });
  assert.deepEqual(
    summary.sources.map((s) => [s.source, s.status]),
    [
      ['boe', 'ok'],
      ['bdns', 'failed'],
    ],
  );

  server.clock.advance(3_600_000);
  const after = (await server.get('/funding/v1/sources')).json.data as Array<Record<string, unknown>>;
  const boe = after.find((s) => s.code === 'boe')!;
  const bdns = after.find((s) => s.code === 'bdns')!;
  assert.equal(boe.last_sync_at, new Date(syncedAt).toISOString());
  assert.equal(boe.data_age_seconds, 3600);
  assert.equal(bdns.last_sync_at, null, 'a failed sync is not a successful one');
  assert.equal(bdns.data_age_seconds, null, 'BDNS was only loaded from a file: no age, whenever it was loaded');

  const m = (await server.get('/metrics')).text;
  assert.equal(metric(m, 'trio_funding_sync_runs_total', 'source="boe",outcome="ok"'), 1);
  assert.equal(metric(m, 'trio_funding_sync_runs_total', 'source="bdns",outcome="failed"'), 1);
  assert.equal(metric(m, 'trio_funding_sync_consecutive_failures', 'source="bdns"'), 1);
  assert.equal(metric(m, 'trio_funding_data_age_seconds', 'source="boe"'), 3600);
  assert.equal(metric(m, 'trio_funding_data_age_seconds', 'source="bdns"'), null, 'never synced: no age');
  assert.equal(
    metric(m, 'trio_funding_newest_published_timestamp_seconds', 'source="bdns"'),
    Date.parse(`${bdns.newest_published_on as string}T00:00:00Z`) / 1000,
  );
  assert.equal(metric(m, 'trio_funding_sync_last_success_timestamp_seconds', 'source="boe"'), syncedAt / 1000);
  assert.ok(metric(m, 'trio_funding_sync_last_duration_seconds', 'source="boe"')! >= 0);

  const page = await server.get('/explore/funding?status=open');
  assert.equal(page.status, 200);
  assert.match(page.text, /BOE[^;]*\(boe\) up to [^;]*, synced 1 hour ago/);
  assert.match(page.text, /BDNS[^;]*\(bdns\) up to [^;]*, never synced/);
});

test('FUNDING_SYNC_EVERY: serve syncs on its own, in a child process, and searches go on meanwhile', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trio-sync-serve-'));
  const serve = await startServeProcess(
    ['--import', 'tsx', 'main.ts', 'serve'],
    {
      DATABASE_PATH: join(dir, 'trio.sqlite'),
      DEMO: 'off',
      FUNDING_SYNC_EVERY: '1h',
      ...syncEnv(),
    },
    join(import.meta.dirname, '..', '..', '..'),
  );
  try {
    // Watch the file (not the API: anonymous callers get 60 requests a minute); search now and then.
    const file = join(dir, 'trio.sqlite');
    let done = 0;
    for (let i = 0; i < 600 && done < 4; i++) {
      if (i % 10 === 0) assert.equal((await fetch(`${serve.url}/funding/v1/search?status=open`)).status, 200);
      await new Promise((r) => setTimeout(r, 100));
      const db = openDatabase(file, { readonly: true });
      try {
        done = db
          .prepare('SELECT count(*) FROM funding_sync_state WHERE last_success_at IS NOT NULL')
          .pluck()
          .get() as number;
      } catch {
        /* the sync's migration may not be applied yet */
      } finally {
        db.close();
      }
    }
    const synced = (
      (await (await fetch(`${serve.url}/funding/v1/sources`)).json()) as { data: Array<Record<string, unknown>> }
    ).data;
    for (const code of ['eu', 'cordis', 'boe', 'bdns'])
      assert.ok(synced.find((s) => s.code === code)?.last_sync_at, `${code} synced`);
    for (let i = 0; i < 100 && !serve.output().includes('scheduled funding sync finished'); i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.match(serve.output(), /scheduled funding sync finished/);
    const found = (await (await fetch(`${serve.url}/funding/v1/search?q=ayudas`)).json()) as { data: unknown[] };
    assert.ok(found.data.length > 0, 'synced calls are searchable');
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
