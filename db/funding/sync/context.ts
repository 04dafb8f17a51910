/**
 * What a source's sync (db/funding/sync/<source>.ts) is given: the polite client, the settings, the
 * state tables, and the ONE way to store what it fetched: `importBatch`, which hands the document to
 * importFundingText (the same entry point as `funding import`, with the same parsers and data
 * rules) and commits the import and the source's bookkeeping (watermark, validators, fingerprints)
 * in one transaction. A document that does not parse, or a kill at any point, leaves the batch
 * entirely unwritten and the watermark where it was.
 *
 * Every failure says what it was about: `fetch` and `importBatch` take a `what` ("BOE sumario of
 * 2026-11-20", "BDNS detail of call 912345") and fail with a SyncError "<what> (<URL>): <reason>".
 * A source has a time bound (FUNDING_SYNC_SOURCE_MAX): past it, `fetch` throws TimeBoundReached
 * before sending anything (the source stops where it is, everything before stored), and a request
 * still out when the bound comes is abandoned, a failure naming its URL.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../connection.ts';
import { importBoeDay, importFundingText, type ImportSummary } from '../import.ts';
import type { FundingSyncConfig } from '../../../lib/funding/sync-config.ts';
import type { SourceCode } from '../../../lib/funding/records.ts';
import {
  FetchFailedError,
  type PoliteClient,
  type PoliteRequest,
  type PoliteResponse,
} from '../../../lib/http/polite-fetch.ts';
import { ImportFormatError } from '../../../lib/funding/records.ts';
import type { RunCounts, SyncLock, SyncState, Validators } from './state.ts';

export const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/**
 * A source's failure, naming what it was fetching or reading and where: "<what> (<URL>): <reason>".
 * `unreadable`: the document came but is not what the source should send (a format error, an error
 * inside a 200), as opposed to a document that could not be had.
 */
export class SyncError extends Error {
  constructor(
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

/** The source's time bound came between two requests: it stops there, nothing lost. */
export class TimeBoundReached extends Error {}

/** One fetched document to import, with what it is for messages. */
export interface Batch {
  name: string; // its URL (a part of a large one: URL#n)
  text: string;
  what: string; // "BOE sumario of 2026-11-20", "BOE document BOE-B-2026-41210 of 2026-11-16"
  organization?: string | null; // CORDIS: the organization.csv rows of this batch
  documents?: Array<{ name: string; text: string }>; // BOE: the sumario's item documents, read with it
}

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
    what: string,
    url: string,
    req?: PoliteRequest,
    conditional?: boolean,
  ): Promise<PoliteResponse & { validators: Validators | null }>;
  /**
   * Imports fetched documents (a BOE sumario and its items' documents), plus `also`, in one
   * transaction; counts what the importer counted. A document that does not parse fails it whole.
   */
  importBatch(batches: Batch[], also?: () => void): ImportSummary[];
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
  /** Real time, for the time bound (the client's clock too); `now` may be a test's fixed clock. */
  wallClock: () => number;
}): SourceRun {
  const { db, source, state, lock, now, runId } = args;
  const counts: RunCounts = {
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    withheld: 0,
    notices: 0,
    skipped: 0,
    failed: 0,
  };
  const deadline = args.wallClock() + args.config.sourceMaxMs;
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
    async fetch(what, url, req = {}, conditional = true) {
      if (args.wallClock() >= deadline)
        throw new TimeBoundReached(`stopped at the time bound (FUNDING_SYNC_SOURCE_MAX) before ${what}`);
      const validators = state.validators(url);
      lock.renew(now());
      let res: PoliteResponse;
      try {
        res = await args.client.fetch(url, {
          ...req,
          deadline,
          ...(conditional ? { etag: validators?.etag ?? null, lastModified: validators?.last_modified ?? null } : {}),
        });
      } catch (err) {
        if (err instanceof FetchFailedError) throw new SyncError(`${what} (${url}): ${err.reason}`);
        throw new SyncError(`${what} (${url}): ${err instanceof Error ? err.message : String(err)}`);
      }
      if (res.status >= 200 && res.status < 300) counts.fetched++;
      return { ...res, validators };
    },
    importBatch(batches, also) {
      return inTransaction(() => {
        // Nested inside this transaction, the importer's own transaction is a savepoint: all or nothing.
        const summaries = batches.map((b) => {
          try {
            return b.documents
              ? importBoeDay(db, b.name, b.text, b.documents, now())
              : importFundingText(db, source, b.name, b.text, now(), b.organization ?? null);
          } catch (err) {
            if (err instanceof ImportFormatError) throw new SyncError(`${b.what} (${b.name}): ${err.message}`, true);
            throw err;
          }
        });
        for (const s of summaries) {
          counts.inserted += s.inserted;
          counts.updated += s.updated;
          counts.unchanged += s.unchanged;
          counts.withheld += s.withheld;
          counts.notices += (s.notices?.inserted ?? 0) + (s.notices?.updated ?? 0);
          counts.skipped += s.skipped ?? 0;
        }
        also?.();
        return summaries;
      });
    },
    commit(also) {
      inTransaction(also);
    },
    progress: args.onProgress,
    flushCounts: () => db.transaction(flush).immediate(),
  };
}
