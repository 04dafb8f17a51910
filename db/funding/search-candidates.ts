/**
 * What every part of a funding search works from (./search.ts pages it, ./search-plan.ts picks its
 * plan, ./search-count.ts counts it): the text expression with the filters' selective facets
 * (./facets.ts) and long prefixes expanded (./prefix-terms.ts), the bound parameters, the statements,
 * and the newest text matches with those of them that pass the filters, decided in memory where it can
 * be (./filter-memory.ts). One per FundingSearch (its caches are per connection).
 */
import type { Db } from '../connection.ts';
import { hasNewFilters } from '../../lib/funding/search-filters.ts';
import { undatedHorizon } from '../../lib/funding/status.ts';
import { facetPlanner } from './facets.ts';
import { filterMemory } from './filter-memory.ts';
import { prefixExpander } from './prefix-terms.ts';
import { SearchExpansion } from './search-expand.ts';
import type { FtsQuery } from '../../lib/funding/search-tiers.ts';
import { preparedSql } from '../statements.ts';
import { FORTHCOMING, notClosed, searchParams, type SearchFilters } from './search-sql.ts';

/** How hard the plans may work (FundingSearch's constructor says what each does; tests lower them). */
export interface SearchOptions {
  materializeUpTo: number;
  listUpTo: number;
  countBudget: number;
  /** false: filtered counts read the rows (the SQL path), as before the filters were kept in memory. */
  memory?: boolean;
}

/** The newest text matches of a search (rowids, newest first) and those that pass its filters. */
export interface Candidates {
  seqs: number[];
  /** Every text match is in `seqs` (there were at most countBudget). */
  complete: boolean;
  /** null: some filter needs the row (closed, a deadline window). */
  passing: number[] | null;
}

export class SearchContext {
  private readonly expand: (fts: string) => string;
  readonly facets: ReturnType<typeof facetPlanner>;
  readonly memory: ReturnType<typeof filterMemory>;
  readonly expansion: SearchExpansion;
  private readonly queryOf = new WeakMap<SearchFilters, FtsQuery>();
  private readonly candidatesOf = new WeakMap<SearchFilters, Candidates>();
  private readonly filtersOnlyOf = new WeakMap<SearchFilters, { count: number; seqs: number[] | null } | null>();

  constructor(
    readonly db: Db,
    readonly options: SearchOptions,
  ) {
    this.expand = prefixExpander(db);
    this.expansion = new SearchExpansion(db);
    this.facets = facetPlanner(db);
    this.memory = filterMemory(db, { notClosed: notClosed(true), forthcoming: FORTHCOMING });
  }

  /**
   * The search's text expanded and compiled into its tiers (./search-expand.ts), once per filters
   * object; partial tiers only for sort=relevance. Throws when the filters have no text.
   */
  query(f: SearchFilters): FtsQuery {
    let q = this.queryOf.get(f);
    if (!q) this.queryOf.set(f, (q = this.expansion.query(f.text!, f.sort === 'relevance')));
    return q;
  }

  /** A text expression, long prefixes expanded, with the filters' selective facets (./facets.ts). */
  match(f: SearchFilters, expr: string): string {
    const facets = this.facets(f).expr;
    const expanded = this.expand(expr);
    return facets ? `(${expanded}) AND ${facets}` : expanded;
  }

  stmt(sql: string) {
    return preparedSql(this.db, sql);
  }

  params(f: SearchFilters) {
    return searchParams(f);
  }

  /**
   * The newest text matches (up to the count budget and one more), and those of them that pass the
   * filters when every filter the facets left is decided in memory (./filter-memory.ts); null when one
   * is not (closed, a deadline window). Once per filters object, shared by the count and the plan.
   */
  candidates(f: SearchFilters): Candidates {
    let c = this.candidatesOf.get(f);
    if (c) return c;
    const budget = this.options.countBudget;
    const seqs = this.stmt(
      `SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH @match ORDER BY rowid DESC LIMIT ${budget + 1}`,
    )
      .pluck()
      .all({ match: this.match(f, this.query(f).all) }) as number[];
    const test =
      this.options.memory === false ? null : this.memory.test(f, this.facets(f).exact, undatedHorizon(f.now));
    const passing = test === null ? null : test === undefined ? seqs : seqs.filter(test);
    this.candidatesOf.set(f, (c = { seqs, complete: seqs.length <= budget, passing }));
    return c;
  }

  /**
   * A search without text but with one of issue 27's filters, counted in memory (./filter-memory.ts):
   * how many calls pass (up to `cap` and one more) and, when they are that few, which
   * (newest first). Null when it cannot be (a deadline window, or memory off). Once per filters object.
   */
  filtersOnly(f: SearchFilters, cap: number): { count: number; seqs: number[] | null } | null {
    if (f.text || !hasNewFilters(f) || this.options.memory === false) return null;
    let c = this.filtersOnlyOf.get(f);
    if (c === undefined) {
      c = this.memory.count(f, undatedHorizon(f.now), cap);
      this.filtersOnlyOf.set(f, c);
    }
    return c;
  }

  /** The candidates if a plan or a count has already read them for these filters. */
  known(f: SearchFilters): Candidates | undefined {
    return this.candidatesOf.get(f);
  }
}
