/**
 * The everyday relevance set and English–Spanish parity (issue 34), over the real server and real
 * HTTP on the demo corpus. fixtures/funding/relevance-everyday.json: queries written by reading the
 * records (half English, half Spanish; plurals, abbreviations, partial matches, one-letter typos),
 * each with the calls that must be among the first five. fixtures/funding/parity-en-es.json: pairs
 * written the same way; a pair holds when the English query finds at least half as many calls as the
 * Spanish one and the two share a call in their first five.
 *
 * The floors are what the engine reached when the set was written (docs/decisions.md, "Issue 34b"),
 * raised after issue 34d's English work, which was built without this set (its own development set is
 * fixtures/funding/relevance-dev.json): English 0.504 → 0.680 at five, answered by nothing 0.365 →
 * 0.192, parity 32 → 41 of 45; Spanish 0.915 → 0.906. They guard against going back, and are raised as
 * the search learns the words people type. Each
 * run prints the figures per language (t.diagnostic) and the queries that missed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/** Precision at five per language: the mean over its queries of found / min(5, required). */
const FLOOR_PRECISION_AT_5 = { es: 0.9, en: 0.66 };
/** The share of a language's queries that return no call at all: at most this. */
const CEILING_EMPTY_SHARE = { es: 0.08, en: 0.2 };
/** The share of the parity pairs that hold. */
const FLOOR_PARITY_SHARE = 0.9;
/**
 * Partial-match queries (no call holds every word) whose named call comes first: 0 before issue 34's
 * partial tiers (every word had to meet in one call), 3 of 10 with them.
 */
const FLOOR_PARTIAL_FIRST_SHARE = 0.3;

type Lang = 'en' | 'es';
interface Judged {
  q: string;
  lang: Lang;
  kinds: string[];
  must: string[];
  first?: string;
  note: string;
}
interface Pair {
  en: string;
  es: string;
  note: string;
}

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding', name), 'utf8'));
const SET = (fixture('relevance-everyday.json') as { queries: Judged[] }).queries;
const PAIRS = (fixture('parity-en-es.json') as { pairs: Pair[] }).pairs;

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.cleanup());

interface Answer {
  total: number;
  top: string[];
}
const answers = new Map<string, Answer>();
/** The first five ids and the total for a query (each query asked once per run). */
async function search(q: string): Promise<Answer> {
  const known = answers.get(q);
  if (known) return known;
  server.clock.advance(1_100); // under the anonymous limit
  const res = await server.get(`/funding/v1/search?${new URLSearchParams({ q, per_page: '5' })}`);
  assert.equal(res.status, 200, `${q}: ${res.text.slice(0, 200)}`);
  const answer = {
    total: res.json.meta.total as number,
    top: (res.json.data as Array<{ id: string }>).map((c) => c.id),
  };
  answers.set(q, answer);
  return answer;
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
const fixed = (x: number) => x.toFixed(3);

test('the set is the issue’s: 80 queries or more, half in each language, every kind; 40 pairs or more', () => {
  assert.ok(SET.length >= 80, `${SET.length} queries`);
  const count = (lang: Lang) => SET.filter((j) => j.lang === lang).length;
  assert.equal(count('en'), count('es'), 'as many English queries as Spanish');
  for (const kind of ['everyday', 'plural', 'abbreviation', 'partial', 'typo', 'en → es'])
    assert.ok(
      SET.some((j) => j.kinds.includes(kind)),
      kind,
    );
  for (const j of SET) {
    assert.ok(j.must.length > 0 && j.note.length > 0, j.q);
    if (j.kinds.includes('partial')) assert.ok(j.first && j.must.includes(j.first), `${j.q}: which call comes first`);
  }
  // Most English queries are for the Spanish records, as a new English-speaking user in Spain types them.
  const english = SET.filter((j) => j.lang === 'en');
  assert.ok(english.filter((j) => j.must.some((id) => !id.startsWith('eu:'))).length >= english.length / 2);
  assert.ok(PAIRS.length >= 40, `${PAIRS.length} pairs`);
});

test('every call the set requires is a published call of the demo corpus (GET /funding/v1/calls/{id})', async () => {
  for (const id of new Set(SET.flatMap((j) => j.must))) {
    server.clock.advance(1_100);
    const res = await server.get(`/funding/v1/calls/${encodeURIComponent(id)}`);
    assert.equal(res.status, 200, `${id}: ${res.status}`);
  }
});

test('precision at five and the share of queries answered by nothing, per language, over the floors', async (t) => {
  const misses: string[] = [];
  const figures = {} as Record<Lang, { precision: number; empty: number; queries: number }>;
  for (const lang of ['es', 'en'] as const) {
    const judged = SET.filter((j) => j.lang === lang);
    let sum = 0;
    let empty = 0;
    for (const j of judged) {
      const { total, top } = await search(j.q);
      const score = j.must.filter((id) => top.includes(id)).length / Math.min(5, j.must.length);
      sum += score;
      if (total === 0) empty++;
      if (score < 1)
        misses.push(`  [${lang}] ${j.q}: ${score.toFixed(2)} (total ${total}; first five: ${top.join(', ') || '—'})`);
    }
    figures[lang] = { precision: sum / judged.length, empty: share(empty, judged.length), queries: judged.length };
  }
  for (const lang of ['es', 'en'] as const) {
    const f = figures[lang];
    t.diagnostic(
      `${lang}: precision@5 ${fixed(f.precision)}, answered by nothing ${fixed(f.empty)} (${f.queries} queries)`,
    );
  }
  for (const kind of ['everyday', 'plural', 'abbreviation', 'partial', 'typo', 'en → es']) {
    const judged = SET.filter((j) => j.kinds.includes(kind));
    let sum = 0;
    for (const j of judged) {
      const { top } = await search(j.q);
      sum += j.must.filter((id) => top.includes(id)).length / Math.min(5, j.must.length);
    }
    t.diagnostic(`kind ${kind}: precision@5 ${fixed(sum / judged.length)} (${judged.length} queries)`);
  }
  t.diagnostic('not all found:');
  for (const line of misses) t.diagnostic(line);
  for (const lang of ['es', 'en'] as const) {
    assert.ok(
      figures[lang].precision >= FLOOR_PRECISION_AT_5[lang],
      `${lang}: precision@5 ${fixed(figures[lang].precision)} < ${FLOOR_PRECISION_AT_5[lang]}`,
    );
    assert.ok(
      figures[lang].empty <= CEILING_EMPTY_SHARE[lang],
      `${lang}: ${fixed(figures[lang].empty)} of queries answered by nothing > ${CEILING_EMPTY_SHARE[lang]}`,
    );
  }
});

test('a query whose words never meet in one call: the call named first comes first', async (t) => {
  const partial = SET.filter((j) => j.kinds.includes('partial'));
  let first = 0;
  for (const j of partial) {
    const { top } = await search(j.q);
    if (top[0] === j.first) first++;
    else t.diagnostic(`  ${j.q}: first ${top[0] ?? '—'}, wanted ${j.first}`);
  }
  const got = share(first, partial.length);
  t.diagnostic(`partial matches: the named call first in ${first} of ${partial.length} (${fixed(got)})`);
  assert.ok(got >= FLOOR_PARTIAL_FIRST_SHARE, `${fixed(got)} < ${FLOOR_PARTIAL_FIRST_SHARE}`);
});

test('English–Spanish parity: the English query finds at least half of what the Spanish one finds, with a call in common in the first five', async (t) => {
  let holding = 0;
  const failing: string[] = [];
  for (const pair of PAIRS) {
    const en = await search(pair.en);
    const es = await search(pair.es);
    // A pair whose Spanish query finds nothing would hold vacuously: the set is written so none does.
    assert.ok(es.total > 0, `${pair.es}: the Spanish query finds something`);
    const holds = en.total >= es.total / 2 && en.top.some((id) => es.top.includes(id));
    if (holds) holding++;
    else failing.push(`  "${pair.en}" ${en.total} / "${pair.es}" ${es.total}`);
  }
  const got = share(holding, PAIRS.length);
  t.diagnostic(`parity: ${holding} of ${PAIRS.length} pairs hold (${fixed(got)})`);
  t.diagnostic('pairs that do not hold (English total / Spanish total):');
  for (const line of failing) t.diagnostic(line);
  assert.ok(got >= FLOOR_PARITY_SHARE, `parity ${fixed(got)} < ${FLOOR_PARITY_SHARE}`);
});
