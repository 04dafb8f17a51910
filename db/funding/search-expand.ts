/**
 * The expansion stage of a search against the corpus (parse → expand → match tiers → page): the
 * parsed text of a search's filters expanded (lib/funding/search-expand.ts) with what the full-text
 * index holds (which vocabulary forms occur, which words are absent and what is near them:
 * ./typo-index.ts) and compiled into its tiers (lib/funding/search-tiers.ts), the partial ones ordered
 * by how rare each unit is. Answers are kept until the next import changes the index.
 */
import type { Db } from '../connection.ts';
import { expandQuery, type Corpus } from '../../lib/funding/search-expand.ts';
import type { SearchText } from '../../lib/funding/search-filters.ts';
import { STEM_LANGUAGES, stemKey } from '../../lib/funding/stem.ts';
import { compileTiers, type FtsQuery } from '../../lib/funding/search-tiers.ts';
import { shippedVocabulary, typoWords } from '../../lib/funding/vocabulary.ts';
import { statementsFor } from '../statements.ts';
import { typoIndex, type TypoIndex } from './typo-index.ts';

/** A unit matched by more calls than this weighs as little as any (its count stops here). */
const WEIGHT_COUNT_CAP = 1000;
/**
 * How many answers of the index each cache keeps: a server nobody syncs never starts a new import, and
 * every distinct word typed adds an entry, so each cache starts again when full (a few MB at most).
 */
const EXPANSION_CACHE_ENTRIES = 50_000;

const statements = statementsFor((db) => ({
  generation: db.prepare('SELECT coalesce(max(id), 0) FROM funding_imports').pluck(),
  corpus: db.prepare('SELECT coalesce(max(seq), 0) FROM funding_calls').pluck(),
  occurs: db.prepare('SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH ? LIMIT 1').pluck(),
  count: db
    .prepare(
      `SELECT count(*) FROM (SELECT 1 FROM funding_calls_fts WHERE funding_calls_fts MATCH ? LIMIT ${WEIGHT_COUNT_CAP})`,
    )
    .pluck(),
}));

export class SearchExpansion {
  readonly typos: TypoIndex;
  private readonly occurs = new Map<string, boolean>();
  private readonly counts = new Map<string, number>();
  private seen = -1;
  private readonly corpus: Corpus;

  constructor(
    private readonly db: Db,
    private readonly cacheEntries = EXPANSION_CACHE_ENTRIES,
  ) {
    // The vocabulary is built now, not on the first search; its words are typo candidates.
    this.typos = typoIndex(db, typoWords(shippedVocabulary()));
    const s = statements(db);
    const occurs = (fts: string) => {
      let o = this.occurs.get(fts);
      if (o === undefined) remember(this.occurs, this.cacheEntries, fts, (o = s.occurs.get(fts) !== undefined));
      return o;
    };
    this.corpus = {
      occurs,
      typos: (word) => {
        const keys = STEM_LANGUAGES.map((l) => `"${stemKey(word, l).replace(/"/g, '""')}"`);
        return occurs(keys.join(' OR ')) ? [] : this.typos.near(word);
      },
    };
  }

  /** The compiled tiers of a search's text; partial tiers for sort=relevance only. */
  query(text: SearchText, partial: boolean): FtsQuery {
    const s = statements(this.db);
    const generation = s.generation.get() as number;
    if (generation !== this.seen) {
      this.occurs.clear();
      this.counts.clear();
      this.seen = generation;
    }
    if (!text.parsed)
      return { all: text.region!, primary: null, secondary: null, units: [], tiers: [], fullTiers: 0, unitMatches: [] };
    const expanded = expandQuery(text.parsed, shippedVocabulary(), this.corpus);
    const first = compileTiers(expanded, text.region, { partial: false });
    if (!partial || expanded.units.length < 2) return first;
    const n = Math.max(1, s.corpus.get() as number);
    const weights = first.unitMatches.map((m) => {
      let c = this.counts.get(m);
      if (c === undefined) remember(this.counts, this.cacheEntries, m, (c = s.count.get(m) as number));
      return Math.log((n + 1) / (c + 1));
    });
    return compileTiers(expanded, text.region, { weights });
  }
}

function remember<V>(cache: Map<string, V>, entries: number, key: string, value: V): void {
  if (cache.size >= entries) cache.clear();
  cache.set(key, value);
}
