/**
 * Snapshots of what is stored, to check that a refused request stored nothing (issue 8). A snapshot
 * is, per table, the row count and a SHA-256 over every row in key order, read through the server's
 * own connection between two requests (better-sqlite3 is synchronous, so nothing interleaves).
 *
 * Left out, because they legitimately change on any request, refused ones included:
 *  - `quota_daily`: every request is counted, errors included (SPEC "Rate limits and quotas": "Every
 *    request counts (errors too)"); db/write-behind.ts flushes the counts about once a second.
 *  - `api_keys.last_used_at`: the access stages note a key's use before the handler may refuse the
 *    request (routes/*\/access.ts → WriteBehind.noteKeyUse), and the write-behind writes it later.
 * Nothing else is written by a request that is refused. Also left out: `api_key_changes`, a generation
 * that triggers bump with every change of `api_keys` (migration 018): derived, it changes only when
 * `api_keys` does, which the snapshot sees.
 *
 * Tables split in two: the ones request handlers write (accounts and keys, console tables, human_*,
 * funding_saved_search*),
 * snapshotted around refused requests; and the register and corpus (impact_*, funding_*), which only
 * operator commands write, so no request of any kind may change them. Those are ~40,000 rows, so they
 * are hashed at the start and end of a run rather than around each request.
 *
 * Hashing thousands of task rows around every request would cost more than the requests, so a
 * snapshot is reused while nothing has been written since it was taken: `total_changes()` of the
 * server's connection (every row any statement of it inserted, updated or deleted, triggers included)
 * and `PRAGMA data_version` (any commit by another connection) together change on every write.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../../db/connection.ts';
import { WRITTEN_BEHIND_COLUMNS, WRITTEN_BEHIND_TABLES } from '../../helpers/written-behind.ts';

// Saved searches (and the calls notified to them) are an account's, written by its requests (issue 27).
const OPERATOR_WRITTEN = /^(impact_|funding_(?!saved_search))/;
const DERIVED = new Set(['api_key_changes']);

export type Snapshot = Record<string, { rows: number; sha256: string }>;

interface TablePlan {
  name: string;
  sql: string;
}

function tablePlans(db: Db): TablePlan[] {
  const tables = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .all() as Array<{ name: string; sql: string }>;
  return tables
    .filter((t) => !WRITTEN_BEHIND_TABLES.has(t.name) && !DERIVED.has(t.name) && !/^CREATE VIRTUAL/i.test(t.sql)) // a virtual table's rows are its shadow tables'
    .map((t) => {
      const columns = db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(t.name) as Array<{
        name: string;
        pk: number;
      }>;
      const kept = columns
        .filter((c) => !(WRITTEN_BEHIND_COLUMNS[t.name] ?? []).includes(c.name))
        .map((c) => `"${c.name}"`);
      const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql);
      const pk = columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => `"${c.name}"`);
      const order = withoutRowid ? (pk.length ? pk : kept).join(', ') : 'rowid';
      return { name: t.name, sql: `SELECT ${kept.join(', ')} FROM "${t.name}" ORDER BY ${order}` };
    });
}

export class StoreSnapshots {
  private readonly requestWritten: TablePlan[];
  private readonly operatorWritten: TablePlan[];

  constructor(private readonly db: Db) {
    const plans = tablePlans(db);
    this.requestWritten = plans.filter((p) => !OPERATOR_WRITTEN.test(p.name));
    this.operatorWritten = plans.filter((p) => OPERATOR_WRITTEN.test(p.name));
    this.changes = db.prepare('SELECT total_changes()').pluck();
  }

  private cached: { marker: string; snapshot: Snapshot } | null = null;
  private readonly changes;

  /** The tables a request handler can write (taken around refused requests). */
  requestWritable(): Snapshot {
    const marker = this.writeMarker();
    if (this.cached?.marker !== marker) this.cached = { marker, snapshot: this.take(this.requestWritten) };
    return this.cached.snapshot;
  }

  /** Changes whenever anything is written to the database, by this connection or another. */
  private writeMarker(): string {
    return `${this.changes.get() as number}:${this.db.pragma('data_version', { simple: true }) as number}`;
  }

  /** The impact register and funding corpus (taken at the start and end of a run). */
  operatorWritable(): Snapshot {
    return this.take(this.operatorWritten);
  }

  private take(plans: TablePlan[]): Snapshot {
    const out: Snapshot = {};
    for (const plan of plans) {
      const hash = createHash('sha256');
      let rows = 0;
      // The same bytes as one update per value part, gathered into a string and handed to the hash in
      // chunks: three native calls per value were most of a snapshot's time (the fuzz test's profile).
      let pending = '';
      for (const row of this.db.prepare(plan.sql).raw().iterate() as IterableIterator<unknown[]>) {
        rows++;
        for (const value of row) {
          if (Buffer.isBuffer(value)) {
            hash.update(pending + 'b' + String(value.length) + ':').update(value);
            pending = '';
          } else pending += (typeof value === 'string' ? 's' : 'v') + String(value) + '\u0000';
        }
        pending += '\u0001';
        if (pending.length > 65_536) {
          hash.update(pending);
          pending = '';
        }
      }
      hash.update(pending);
      out[plan.name] = { rows, sha256: hash.digest('hex') };
    }
    return out;
  }
}

/** The tables whose content differs between two snapshots, with their row counts. */
export function snapshotDifferences(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names]
    .filter((n) => before[n]?.sha256 !== after[n]?.sha256)
    .map((n) => `${n} (rows ${before[n]?.rows ?? '-'} → ${after[n]?.rows ?? '-'})`);
}
