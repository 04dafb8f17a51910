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
 *   changes only by an import). Only for a filter the FTS facet tokens do not already decide.
 *
 * Closed calls (nine in ten) and the deadline window are not kept: searches with them use the SQL path.
 */
import type { Db } from '../connection.ts';
import { corpusEpoch } from './corpus-epoch.ts';

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

interface Columns {
  generation: number;
  country: Uint16Array;
  source: Uint16Array;
  countryCodes: Map<string, number>;
  sourceCodes: Map<string, number>;
}

/**
 * `notClosedSql` is the status predicate of db/funding/search.ts for "not closed" and `forthcomingSql`
 * its forthcoming test, both over alias `c` with parameters @now and @undatedHorizon.
 */
export function filterMemory(db: Db, sql: { notClosed: string; forthcoming: string }) {
  const epoch = corpusEpoch(db);
  const notClosed = db
    .prepare(
      `SELECT c.seq, CASE WHEN ${sql.forthcoming} THEN ${FORTHCOMING} ELSE ${OPEN} END FROM funding_calls c
      WHERE c.personal_data = 0 AND ${sql.notClosed}`,
    )
    .raw();
  const maxSeq = db.prepare('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck();
  const columns = db.prepare('SELECT seq, country, source FROM funding_calls WHERE personal_data = 0').raw();
  let status: StatusMarks | null = null;
  let cols: Columns | null = null;

  function statusAt(now: number, undatedHorizon: string): StatusMarks {
    const generation = epoch.generation();
    if (status && status.generation === generation && now >= status.from && now < status.until) return status;
    const marks = new Map<number, number>();
    for (const [seq, mark] of notClosed.iterate({ now, undatedHorizon }) as Iterable<[number, number]>)
      marks.set(seq, mark);
    return (status = { generation, from: now, until: epoch.at(now).validUntil, marks });
  }

  function columnsNow(): Columns {
    const generation = epoch.generation();
    if (cols && cols.generation === generation) return cols;
    const size = (maxSeq.get() as number) + 1;
    const country = new Uint16Array(size);
    const source = new Uint16Array(size);
    const countryCodes = new Map<string, number>();
    const sourceCodes = new Map<string, number>();
    const code = (codes: Map<string, number>, value: string | null) => {
      if (value === null) return 0;
      let c = codes.get(value);
      if (c === undefined) codes.set(value, (c = codes.size + 1));
      return c;
    };
    for (const [seq, c, s] of columns.iterate() as Iterable<[number, string | null, string | null]>) {
      country[seq] = code(countryCodes, c);
      source[seq] = code(sourceCodes, s);
    }
    return (cols = { generation, country, source, countryCodes, sourceCodes });
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
      if (country !== null || source !== null) {
        const c = columnsNow();
        if (country !== null) {
          const code = c.countryCodes.get(country) ?? -1;
          checks.push((seq) => c.country[seq] === code);
        }
        if (source !== null) {
          const code = c.sourceCodes.get(source) ?? -1;
          checks.push((seq) => c.source[seq] === code);
        }
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
