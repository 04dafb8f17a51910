/**
 * What the sync tests share: the local sources' server (./funding-sources.ts) started once per file,
 * and a fresh migrated database per test in a temp directory, both cleaned up after the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { openDatabase, type Db } from '../../db/connection.ts';
import { migrate } from '../../db/migrate.ts';
import { readFundingSyncConfig, type FundingSyncConfig } from '../../lib/funding/sync-config.ts';
import { startFakeSources, type FakeSources } from './funding-sources.ts';

export interface SyncHarness {
  /** The sources' server (set before the file's first test). */
  fake: FakeSources;
  freshDb(): Db;
  /** Sync settings against the server, fast (no spacing, short retries), with `env` on top. */
  config(env?: Record<string, string>): FundingSyncConfig;
}

export function syncHarness(prefix: string, now: number): SyncHarness {
  let dir = '';
  let n = 0;
  const h: SyncHarness = {
    fake: undefined as unknown as FakeSources,
    freshDb(): Db {
      const db = openDatabase(join(dir, `t${n++}.sqlite`));
      migrate(db, undefined, now);
      return db;
    },
    config: (env: Record<string, string> = {}) =>
      readFundingSyncConfig({
        ...h.fake.env,
        FUNDING_SYNC_RATE: '1000',
        FUNDING_SYNC_RETRY_BASE_MS: '5',
        FUNDING_SYNC_BACKFILL_DAYS: '30',
        FUNDING_SYNC_CONTACT: 'funding-ops@example.org',
        ...env,
      }),
  };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    h.fake = await startFakeSources();
  });
  after(async () => {
    await h.fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return h;
}
