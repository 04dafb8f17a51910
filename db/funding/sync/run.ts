/**
 * `funding sync`: brings the corpus up to date from the sources' public endpoints, one source after
 * the other (EU before CORDIS, whose projects join EU topics; BOE before BDNS, which folds BOE
 * calls). One sync at a time across processes (the lock in funding_sync_lock). A source that fails
 * is logged and reported, and the others go on; it starts again from its watermark next time. Each
 * source has a time bound (FUNDING_SYNC_SOURCE_MAX): one that hangs cannot hold the others back.
 */
import type { Db } from '../../connection.ts';
import type { SourceCode } from '../../../lib/funding/records.ts';
import { userAgent, type FundingSyncConfig } from '../../../lib/funding/sync-config.ts';
import { PoliteClient } from '../../../lib/http/polite-fetch.ts';
import { syncBdns } from './bdns.ts';
import { syncBoe } from './boe.ts';
import { createSourceRun, TimeBoundReached, type Progress, type SourceRun } from './context.ts';
import { syncCordis } from './cordis.ts';
import { syncEu } from './eu.ts';
import { acquireSyncLock, syncState, SyncLockedError, type RunCounts } from './state.ts';
import { compactSearchIndex, type IndexOptimization } from '../search-index.ts';

export const SYNC_ORDER: SourceCode[] = ['eu', 'cordis', 'boe', 'bdns'];
const SYNCS: Record<SourceCode, (run: SourceRun) => Promise<void>> = {
  eu: syncEu,
  cordis: syncCordis,
  boe: syncBoe,
  bdns: syncBdns,
};

export interface SourceSummary extends RunCounts {
  source: SourceCode;
  status: 'ok' | 'failed';
  /** false: the source stopped at its time bound (FUNDING_SYNC_SOURCE_MAX); the next run goes on from there. */
  complete: boolean;
  /** What failed: "<what> (<URL>): <reason>", naming the day or record. */
  error: string | null;
  /** Runs in a row that failed, this one included (0 after a success). */
  consecutive_failures: number;
  requests: number;
  seconds: number;
  notes: string[];
}

export interface SyncSummary {
  /** Set when another sync held the lock: nothing was done. */
  locked: string | null;
  sources: SourceSummary[];
  warnings: string[];
  /** The full-text index merged after the imports (../search-index.ts), or null when it did not need it. */
  index?: IndexOptimization | null;
}

export interface SyncOptions {
  config: FundingSyncConfig;
  sources?: SourceCode[];
  since?: string | null;
  now?: () => number;
  version?: string;
  onProgress?: (source: SourceCode, p: Progress) => void;
  onSourceDone?: (s: SourceSummary) => void;
  lockTtlMs?: number;
  /** Real time: the polite client's spacing and each source's time bound (tests move it). */
  wallClock?: () => number;
}

export async function runFundingSync(db: Db, options: SyncOptions): Promise<SyncSummary> {
  const now = options.now ?? Date.now;
  const { config } = options;
  const wanted = new Set(options.sources ?? config.sources);
  const warnings = config.contact
    ? []
    : ['FUNDING_SYNC_CONTACT is not set: the sources cannot tell who runs this crawler'];
  let lock;
  try {
    // Renewed before every request and after every batch: it must outlast one request's worst case
    // (every attempt timing out, with the longest wait between attempts).
    const worstRequestMs = (config.retries + 1) * (config.timeoutMs + config.retryMaxMs);
    lock = acquireSyncLock(db, now(), options.lockTtlMs ?? Math.max(600_000, worstRequestMs + 60_000));
  } catch (err) {
    if (err instanceof SyncLockedError) return { locked: err.message, sources: [], warnings };
    throw err;
  }
  const wallClock = options.wallClock ?? Date.now;
  const client = new PoliteClient({
    now: wallClock,
    userAgent: userAgent(options.version ?? '0', config.contact),
    ratePerHost: config.ratePerHost,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    retryBaseMs: config.retryBaseMs,
    retryMaxMs: config.retryMaxMs,
  });
  const state = syncState(db);
  const sources: SourceSummary[] = [];
  try {
    for (const source of SYNC_ORDER.filter((s) => wanted.has(s))) {
      const started = now();
      const requestsBefore = client.requests;
      const runId = state.startRun(source, started);
      const run = createSourceRun({
        db,
        source,
        config,
        client,
        state,
        lock,
        now,
        since: options.since ?? null,
        runId,
        wallClock,
        onProgress: (p) => options.onProgress?.(source, p),
      });
      let error: string | null = null;
      let complete = true;
      try {
        await SYNCS[source](run);
      } catch (err) {
        if (err instanceof SyncLockedError) throw err;
        if (err instanceof TimeBoundReached) {
          // Everything before was stored with its watermark: the next run resumes there.
          complete = false;
          run.notes.push(`${err.message}; the next run resumes there`);
        } else {
          error = err instanceof Error ? err.message : String(err);
          run.counts.failed++;
        }
      }
      run.flushCounts();
      state.finishRun(runId, source, now(), error);
      const summary: SourceSummary = {
        source,
        status: error === null ? 'ok' : 'failed',
        complete,
        error,
        ...run.counts,
        consecutive_failures: state.state(source)?.consecutive_failures ?? 0,
        requests: client.requests - requestsBefore,
        seconds: (now() - started) / 1000,
        notes: run.notes,
      };
      sources.push(summary);
      options.onSourceDone?.(summary);
    }
    // Still under the lock: no other sync writes meanwhile. Each step is its own short transaction.
    const index = compactSearchIndex(db);
    return { locked: null, sources, warnings, index };
  } finally {
    lock.release();
  }
}
