/**
 * What a source's sync (db/funding/sync/<source>.ts) is given: the polite client, the settings, the
 * state tables, and the ONE way to store what it fetched: `importBatch`, which hands the document to
 * importFundingText (the same entry point as `funding import`, with the same parsers and data
 * rules) and commits the import and the source's bookkeeping (watermark, validators, fingerprints)
 * in one transaction. A document that does not parse, or a kill at any point, leaves the batch
 * entirely unwritten and the watermark where it was.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../connection.ts';
import { importFundingText, type ImportSummary } from '../import.ts';
import type { FundingSyncConfig } from '../../../lib/funding/sync-config.ts';
import type { SourceCode } from '../../../lib/funding/records.ts';
import type { PoliteClient, PoliteRequest, PoliteResponse } from '../../../lib/http/polite-fetch.ts';
import type { RunCounts, SyncLock, SyncState, Validators } from './state.ts';

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/**
 * What to store for a fetched document: the answer's validators (the stored body hash kept), the
 * body's hash (null on a 304), and whether the document is unchanged (a 304, or the same body).
 */
export function answerValidators(res: PoliteResponse & { validators: Validators | null }): {
  validators: Validators;
  bodySha: string | null;
  unchanged: boolean;
} {
  const stored = res.validators?.body_sha256 ?? null;
  const bodySha = res.status === 304 ? null : sha256(res.body);
  return {
    validators: { etag: res.etag, last_modified: res.lastModified, body_sha256: stored },
    bodySha,
    unchanged: res.status === 304 || bodySha === res.validators?.body_sha256,
  };
}

export interface Progress {
  done: number;
  total: number | null;
  label: string;
}

export interface SourceRun {
  db: Db;
  source: SourceCode;
  config: FundingSyncConfig;
  client: PoliteClient;
  state: SyncState;
  now(): number;
  /** --since: read from this day (YYYY-MM-DD) instead of the watermark. */
  since: string | null;
  counts: RunCounts;
  /** Notes for the summary (a fallback taken, a window re-read). */
  notes: string[];
  /**
   * GET/POST through the polite client. The stored validators of `url` come back with the answer and,
   * unless `conditional` is false, are sent (If-None-Match / If-Modified-Since).
   */
  fetch(
    url: string,
    req?: PoliteRequest,
    conditional?: boolean,
  ): Promise<PoliteResponse & { validators: Validators | null }>;
  /** Imports one fetched document, plus `also`, in one transaction; counts what the importer counted. */
  importBatch(name: string, text: string, also?: () => void, organization?: string | null): ImportSummary;
  /** Bookkeeping alone (a 404 day, a 304), in one transaction. */
  commit(also: () => void): void;
  progress(p: Progress): void;
  /** Writes the counts not yet written with a batch (a run that failed or ended on skips). */
  flushCounts(): void;
}

export function createSourceRun(args: {
  db: Db;
  source: SourceCode;
  config: FundingSyncConfig;
  client: PoliteClient;
  state: SyncState;
  lock: SyncLock;
  now: () => number;
  since: string | null;
  runId: number;
  onProgress: (p: Progress) => void;
}): SourceRun {
  const { db, source, state, lock, now, runId } = args;
  const counts: RunCounts = { fetched: 0, inserted: 0, updated: 0, unchanged: 0, withheld: 0, skipped: 0, failed: 0 };
  // Counts reach funding_sync_runs inside each batch's transaction, so the log is exact after a kill.
  let flushed: RunCounts = { ...counts };
  const flush = () => {
    const delta = Object.fromEntries(
      Object.entries(counts).map(([k, v]) => [k, v - flushed[k as keyof RunCounts]]),
    ) as unknown as RunCounts;
    state.addCounts(runId, delta);
    flushed = { ...counts };
  };
  const inTransaction = <T>(fn: () => T): T =>
    db
      .transaction(() => {
        const result = fn();
        flush();
        lock.renew(now());
        return result;
      })
      .immediate();

  return {
    db,
    source,
    config: args.config,
    client: args.client,
    state,
    now,
    since: args.since,
    counts,
    notes: [],
    async fetch(url, req = {}, conditional = true) {
      const validators = state.validators(url);
      lock.renew(now());
      const res = await args.client.fetch(
        url,
        conditional ? { ...req, etag: validators?.etag ?? null, lastModified: validators?.last_modified ?? null } : req,
      );
      if (res.status >= 200 && res.status < 300) counts.fetched++;
      return { ...res, validators };
    },
    importBatch(name, text, also, organization = null) {
      return inTransaction(() => {
        // Nested inside this transaction, the importer's own transaction is a savepoint: all or nothing.
        const s = importFundingText(db, source, name, text, now(), organization);
        counts.inserted += s.inserted;
        counts.updated += s.updated;
        counts.unchanged += s.unchanged;
        counts.withheld += s.withheld;
        counts.skipped += s.skipped ?? 0;
        also?.();
        return s;
      });
    },
    commit(also) {
      inTransaction(also);
    },
    progress: args.onProgress,
    flushCounts: () => db.transaction(flush).immediate(),
  };
}
