/**
 * How long what the corpus says stays true. A search response depends on the time only through
 * status: it changes when some call closes, opens, or (undated calls) passes the 90-day rule at a UTC
 * midnight; and it changes when an import adds or changes calls. So a response can be kept until the
 * earliest of those instants, or until the import generation moves. Both checks are index lookups.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';

export interface Epoch {
  generation: number;
  validUntil: number;
}

const DAY_MS = 86_400_000;

const statements = statementsFor((db) => ({
  // Moves with every import and every `funding reapply-rules` run (db/funding/rules.ts).
  generation: db
    .prepare(
      `SELECT (SELECT coalesce(max(id), 0) FROM funding_imports)
    + (SELECT coalesce(max(id), 0) FROM funding_rule_runs)`,
    )
    .pluck(),
  // The served deadline (of several cut-offs, the next): its passing changes what a page shows and
  // how it sorts; the last cut-off's passing (status) is one of these instants too.
  nextClose: db
    .prepare(
      `SELECT min(coalesce(served_closes_at, 253402300799999)) FROM funding_calls
    WHERE personal_data = 0 AND coalesce(served_closes_at, 253402300799999) > ?`,
    )
    .pluck(),
  nextOpen: db
    .prepare(
      'SELECT min(opens_at) FROM funding_calls WHERE personal_data = 0 AND opens_at IS NOT NULL AND opens_at > ?',
    )
    .pluck(),
}));

export function corpusEpoch(db: Db) {
  const { generation, nextClose, nextOpen } = statements(db);

  return {
    generation: () => generation.get() as number,
    /** The epoch that holds at `now`. */
    at(now: number): Epoch {
      const nextMidnight = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
      const close = (nextClose.get(now) as number | null) ?? Infinity;
      const open = (nextOpen.get(now) as number | null) ?? Infinity;
      return { generation: generation.get() as number, validUntil: Math.min(nextMidnight, close, open) };
    },
  };
}
