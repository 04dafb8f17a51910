/**
 * The replication heartbeat (migration 011): the primary writes the time into one row; a read-only
 * node serving a replicated copy reads it back, and the difference with its own clock is the age of
 * its copy. The row travels with the data through whatever replicates the file (Litestream's WAL
 * shipping, LiteFS's transactions), so the lag measured is the lag of the data itself, not of a
 * file's timestamp (which a restore or a LiteFS mount rewrites). docs/scaling.md.
 */
import { hostname } from 'node:os';
import type { Db } from './connection.ts';
import { statementsFor } from './statements.ts';

const statements = statementsFor((db) => ({
  write: db.prepare(`INSERT INTO replica_heartbeat (id, written_at, writer) VALUES (1, ?, ?)
    ON CONFLICT (id) DO UPDATE SET written_at = excluded.written_at, writer = excluded.writer`),
  read: db.prepare('SELECT written_at, writer FROM replica_heartbeat WHERE id = 1'),
}));

export function heartbeatWriter(db: Db): (now: number) => void {
  const write = statements(db).write;
  const writer = `${hostname()}:${process.pid}`;
  return (now) => void write.run(now, writer);
}

export interface Lag {
  lagMs: number | null;
  writtenAt: number | null;
  writer: string | null;
}

/** The age of this copy of the data: null when the primary has never written a heartbeat. */
export function heartbeatReader(db: Db): (now: number) => Lag {
  const read = statements(db).read;
  return (now) => {
    const row = read.get() as { written_at: number; writer: string } | undefined;
    if (!row) return { lagMs: null, writtenAt: null, writer: null };
    return { lagMs: Math.max(0, now - row.written_at), writtenAt: row.written_at, writer: row.writer };
  };
}
