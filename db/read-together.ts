/**
 * The reads of one request in one read transaction (issue 37): a keyed GET reads the key generation
 * (db/accounts.ts keyLookup) and then its row (the task a result shows), each statement otherwise its
 * own read transaction with its own shared lock on the file (system calls: a third of the authenticated
 * result's server CPU, BENCHMARKS.md "The cost of one request"). Taken together the two are read once
 * and from the same snapshot. Only the synchronous part of the request runs inside: the transaction is
 * committed when the router returns, whether it answered or left a promise, so it never spans an `await`
 * (better-sqlite3's rule) and no other request's statement runs in it. Only for reads: a write inside a
 * deferred read transaction could fail on a snapshot another process has moved past.
 */
import type { Db } from './connection.ts';
import type { ApiRequest } from '../lib/http/types.ts';
import { statementsFor } from './statements.ts';

const statements = statementsFor((db) => ({
  begin: db.prepare('BEGIN DEFERRED'),
  commit: db.prepare('COMMIT'),
}));

const READS = new Set(['GET', 'HEAD']);

export function readTogether(db: Db, walk: (req: ApiRequest) => unknown): (req: ApiRequest) => unknown {
  const { begin, commit } = statements(db);
  return (req) => {
    if (!READS.has(req.originalMethod) || db.inTransaction) return walk(req);
    begin.run();
    try {
      return walk(req);
    } finally {
      if (db.inTransaction) commit.run();
    }
  };
}
