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
 * - Who may apply, budget and recently changed (issue 27): each call's applicant mask and budget, and
 *   the few calls with a recorded change, read once per import generation (the only writer of them).
 *   With them a search without text is counted here too (`count`): the calls a filter can hold are
 *   walked (the changed ones, the not-closed ones, else every call) instead of SQLite reading rows.
 *
 * Closed calls (nine in ten) and the deadline window are not kept: text searches with them use the SQL
 * path (a count without text decides closed as "public and not in the not-closed set").
 */
import type { Db } from '../connection.ts';
import type { SearchFilters } from '../../lib/funding/search-filters.ts';
import { corpusEpoch } from './corpus-epoch.ts';
import { preparedSql, statementsFor } from '../statements.ts';

/** The filters this module decides, and which of country/source the FTS facets already decided. */
export type MemoryFilterInput = Pick<
  SearchFilters,
  'country' | 'source' | 'status' | 'deadlineFrom' | 'deadlineTo' | 'applicants' | 'budget' | 'changedSince' | 'now'
>;

/** Issue 27's columns, per call: applicant mask, budget (NaN: not stated), and the changed calls. */
interface Amounts {
  generation: number;
  masks: Uint8Array;
  budgets: Float64Array;
  changed: Map<number, number>;
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
    applicant_mask: db
      .prepare(
        'SELECT applicant_mask, group_concat(seq) FROM funding_calls WHERE personal_data = 0 GROUP BY applicant_mask',
      )
      .raw(),
  },
  budgets: db.prepare('SELECT seq, budget FROM funding_calls WHERE personal_data = 0 AND budget IS NOT NULL').raw(),
  changed: db
    .prepare('SELECT seq, changed_at FROM funding_calls WHERE personal_data = 0 AND changed_at IS NOT NULL')
    .raw(),
}));

/** A call passes the budget filter (NaN: the source states none). */
function budgetTest(b: NonNullable<SearchFilters['budget']>): (amount: number) => boolean {
  const min = b.min ?? -Infinity;
  const max = b.max ?? Infinity;
  return (amount) => (Number.isNaN(amount) ? b.unstated : amount >= min && amount <= max);
}

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
  const { maxSeq, grouped, budgets, changed } = statements(db);
  let status: StatusMarks | null = null;
  const columns: { country?: Column; source?: Column } = {};
  let amounts: Amounts | null = null;

  function amountsNow(): Amounts {
    const generation = epoch.generation();
    if (amounts && amounts.generation === generation) return amounts;
    const size = (maxSeq.get() as number) + 1;
    const masks = new Uint8Array(size);
    for (const [mask, seqs] of grouped.applicant_mask.iterate() as Iterable<[number, string]>) {
      if (mask === 0) continue;
      for (const seq of seqs.split(',')) masks[Number(seq)] = mask;
    }
    const amount = new Float64Array(size).fill(NaN);
    for (const [seq, budget] of budgets.iterate() as Iterable<[number, number]>) amount[seq] = budget;
    const changes = new Map<number, number>();
    for (const [seq, at] of changed.iterate() as Iterable<[number, number]>) changes.set(seq, at);
    return (amounts = { generation, masks, budgets: amount, changed: changes });
  }

  /** The checks of issue 27's filters, over calls of the FTS index or public calls. */
  function newChecks(f: MemoryFilterInput): Array<(seq: number) => boolean> {
    const checks: Array<(seq: number) => boolean> = [];
    if (!f.applicants && !f.budget && f.changedSince === null) return checks;
    const { masks, budgets: amount, changed: changes } = amountsNow();
    if (f.applicants) {
      const { mask, unstated } = f.applicants;
      checks.push((seq) => (masks[seq]! & mask) !== 0 || (unstated && masks[seq] === 0));
    }
    if (f.budget) {
      const passes = budgetTest(f.budget);
      checks.push((seq) => passes(amount[seq]!));
    }
    if (f.changedSince !== null) {
      const since = f.changedSince;
      checks.push((seq) => (changes.get(seq) ?? -Infinity) >= since);
    }
    return checks;
  }

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
      checks.push(...newChecks(f));
      if (checks.length === 0) return undefined;
      return (seq) => checks.every((check) => check(seq));
    },
    /**
     * A search without text, counted here (up to `cap` + 1) when it has one of issue 27's filters and
     * no deadline window: its calls in seq order (newest import first), the passing ones listed while
     * there are at most `cap`. The calls walked are the fewest a filter allows: the changed ones, the
     * not-closed ones (open, forthcoming), else every call. Null when it cannot be (a deadline window).
     */
    count(f: MemoryFilterInput, undatedHorizon: string, cap: number): { count: number; seqs: number[] | null } | null {
      if (f.deadlineFrom || f.deadlineTo) return null;
      const countries = column('country').values; // 0: not a public call
      const checks: Array<(seq: number) => boolean> = [(seq) => countries[seq] !== 0];
      for (const [name, value] of [
        ['country', f.country],
        ['source', f.source],
      ] as const) {
        if (value === null) continue;
        const { values, codes } = column(name);
        const code = codes.get(value) ?? -1;
        checks.push((seq) => values[seq] === code);
      }
      let walk: Iterable<number> | null = null;
      if (f.status) {
        const { marks } = statusAt(f.now, undatedHorizon);
        if (f.status === 'closed') checks.push((seq) => !marks.has(seq));
        else {
          const want = f.status === 'open' ? OPEN : FORTHCOMING;
          checks.push((seq) => marks.get(seq) === want);
          walk = marks.keys();
        }
      }
      checks.push(...newChecks(f));
      if (f.changedSince !== null) walk = amountsNow().changed.keys();
      const seqs: number[] = [];
      let count = 0;
      const visit = (seq: number) => {
        for (const check of checks) if (!check(seq)) return;
        count++;
        if (count <= cap) seqs.push(seq);
      };
      if (walk) {
        for (const seq of walk) {
          visit(seq);
          if (count > cap) break;
        }
      } else for (let seq = countries.length - 1; seq > 0 && count <= cap; seq--) visit(seq);
      return { count, seqs: count <= cap ? seqs.sort((a, b) => b - a) : null };
    },
    /** How many calls are not closed at `now` (the length of a walk over the status range). */
    notClosedCount(now: number, undatedHorizon: string): number {
      return statusAt(now, undatedHorizon).marks.size;
    },
  };
}
