/**
 * The filters of a search decided in memory, per call (`seq`), so that a filtered text count and the
 * plan of a sorted text search read no call row (BENCHMARKS.md "Issue 13: the mix's tail": reading the
 * rows of 10,000 text matches to test a country or a status was most of the slowest tenth of the mix).
 *
 * - Status (open, forthcoming): the calls not closed at `now`, each marked open or forthcoming, read
 *   once from the deadline index with the very SQL of db/funding/search.ts (`statusSql`), so the answer
 *   is the same by construction. It holds until the corpus epoch ends (./corpus-epoch.ts: the next
 *   close, opening or UTC midnight, or an import), and for no `now` before the one it was read at.
 * - Country and source: each call's value, read once per import generation (a call's country or source
 *   changes only by an import) when a filter the FTS facet tokens do not decide first needs it (~0.7 s
 *   on a million calls on the shared benchmark machine; a search for `country=ES` pays it once).
 *
 * Closed calls (nine in ten) and the deadline window are not kept: searches with them use the SQL path.
 */
import type { Db } from '../connection.ts';
import { corpusEpoch } from './corpus-epoch.ts';
import { preparedSql, statementsFor } from '../statements.ts';

/** The filters this module decides, and which of country/source the FTS facets already decided. */
export interface MemoryFilterInput {
  country: string | null;
  source: string | null;
  status: 'open' | 'forthcoming' | 'closed' | null;
  deadlineFrom: string | null;
  deadlineTo: string | null;
  now: number;
}

const OPEN = 1;
const FORTHCOMING = 2;

interface StatusMarks {
  generation: number;
  from: number;
  until: number;
  /** seq → OPEN or FORTHCOMING, for every public call not closed at `from`. */
  marks: Map<number, number>;
}

/** One column's value per call, as a small code (0: none or not public). */
interface Column {
  generation: number;
  values: Uint16Array;
  codes: Map<string, number>;
}

const statements = statementsFor((db) => ({
  maxSeq: db.prepare('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck(),
  // One row per value with its calls' seqs: about 2.5× faster than a row per call on 1M calls.
  grouped: {
    country: db
      .prepare('SELECT country, group_concat(seq) FROM funding_calls WHERE personal_data = 0 GROUP BY country')
      .raw(),
    source: db
      .prepare('SELECT source, group_concat(seq) FROM funding_calls WHERE personal_data = 0 GROUP BY source')
      .raw(),
  },
}));

/**
 * `notClosedSql` is the status predicate of db/funding/search.ts for "not closed" and `forthcomingSql`
 * its forthcoming test, both over alias `c` with parameters @now and @undatedHorizon.
 */
export function filterMemory(db: Db, sql: { notClosed: string; forthcoming: string }) {
  const epoch = corpusEpoch(db);
  // Built from the search's own predicates: run-time SQL, used only here (so its raw mode is shared by no one else).
  const notClosed = preparedSql(
    db,
    `SELECT c.seq, CASE WHEN ${sql.forthcoming} THEN ${FORTHCOMING} ELSE ${OPEN} END FROM funding_calls c
      WHERE c.personal_data = 0 AND ${sql.notClosed}`,
  ).raw();
  const { maxSeq, grouped } = statements(db);
  let status: StatusMarks | null = null;
  const columns: { country?: Column; source?: Column } = {};

  function statusAt(now: number, undatedHorizon: string): StatusMarks {
    const generation = epoch.generation();
    if (status && status.generation === generation && now >= status.from && now < status.until) return status;
    const marks = new Map<number, number>();
    for (const [seq, mark] of notClosed.iterate({ now, undatedHorizon }) as Iterable<[number, number]>)
      marks.set(seq, mark);
    return (status = { generation, from: now, until: epoch.at(now).validUntil, marks });
  }

  function column(name: 'country' | 'source'): Column {
    const generation = epoch.generation();
    const kept = columns[name];
    if (kept && kept.generation === generation) return kept;
    const values = new Uint16Array((maxSeq.get() as number) + 1);
    const codes = new Map<string, number>();
    for (const [value, seqs] of grouped[name].iterate() as Iterable<[string | null, string]>) {
      if (value === null) continue;
      const code = codes.size + 1;
      codes.set(value, code);
      for (const seq of seqs.split(',')) values[Number(seq)] = code;
    }
    return (columns[name] = { generation, values, codes });
  }

  return {
    /**
     * A test of the filters the facets left undecided, over calls of the FTS index (public ones), or
     * null when one of them is not kept here (closed, a deadline window). Undefined when none is left.
     */
    test(
      f: MemoryFilterInput,
      decided: { country: boolean; source: boolean },
      undatedHorizon: string,
    ): ((seq: number) => boolean) | null | undefined {
      if (f.deadlineFrom || f.deadlineTo || f.status === 'closed') return null;
      const checks: Array<(seq: number) => boolean> = [];
      const country = f.country && !decided.country ? f.country : null;
      const source = f.source && !decided.source ? f.source : null;
      for (const [name, value] of [
        ['country', country],
        ['source', source],
      ] as const) {
        if (value === null) continue;
        const { values, codes } = column(name);
        const code = codes.get(value) ?? -1;
        checks.push((seq) => values[seq] === code);
      }
      if (f.status) {
        const { marks } = statusAt(f.now, undatedHorizon);
        const want = f.status === 'open' ? OPEN : FORTHCOMING;
        checks.push((seq) => marks.get(seq) === want);
      }
      if (checks.length === 0) return undefined;
      return (seq) => checks.every((check) => check(seq));
    },
    /** How many calls are not closed at `now` (the length of a walk over the status range). */
    notClosedCount(now: number, undatedHorizon: string): number {
      return statusAt(now, undatedHorizon).marks.size;
    },
  };
}
