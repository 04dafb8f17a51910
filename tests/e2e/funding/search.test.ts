/**
 * /funding/v1/search end to end on the demo corpus: every parameter valid, at its bounds and
 * invalid, the response shape, and the filters' meaning.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({ inProcess: true });
});
after(() => server.cleanup());

// The anonymous limit is 60 a minute: move the clock on between groups of calls so the limit under
// test here is never the rate limit (access.test.ts tests that).
const get = async (path: string) => {
  server.clock.advance(1_100);
  return server.get(path);
};

describe('valid searches', () => {
  test('no parameters: a page of published calls, newest first, with meta', async () => {
    const res = await get('/funding/v1/search');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    assert.ok(res.json.data.length > 0);
    assert.deepEqual(Object.keys(res.json.meta).sort(), [
      'next_cursor',
      'not_matching',
      'page',
      'per_page',
      'total',
      'total_exact',
    ]);
    assert.deepEqual(res.json.meta.not_matching, {}, 'no text: nothing left out');
    assert.equal(res.json.meta.page, 1);
    assert.equal(res.json.meta.per_page, 20);
    const published = res.json.data.map((c: { published_on: string | null }) => c.published_on).filter(Boolean);
    assert.deepEqual(published, [...published].sort().reverse(), 'sorted by published, newest first');
    for (const call of res.json.data) {
      for (const field of [
        'id',
        'source',
        'source_id',
        'title',
        'country',
        'deadline',
        'deadline_time',
        'deadline_text',
        'status',
        'source_status',
        'time_zone',
        'language',
        'url',
        'published_on',
        'opening_on',
        'budget',
        'currency',
        'funder',
        'programme',
        'region',
        'summary',
        'cutoffs',
      ]) {
        assert.ok(field in call, `${call.id} has ${field}`);
      }
      assert.ok(['open', 'forthcoming', 'closed'].includes(call.status));
      if (call.deadline_time !== null) assert.match(call.deadline_time, /^\d{2}:\d{2}$/);
      assert.notEqual(call.deadline_time, '00:00', 'never a made-up midnight');
    }
  });

  test('status filter returns only calls with that status, computed now', async () => {
    for (const status of ['open', 'forthcoming', 'closed']) {
      const res = await get(`/funding/v1/search?status=${status}&per_page=100`);
      assert.equal(res.status, 200, status);
      assert.ok(res.json.data.length > 0, `the demo corpus has ${status} calls`);
      for (const call of res.json.data) assert.equal(call.status, status, call.id);
    }
  });

  test('country filter, either case; EU for the Commission', async () => {
    for (const [param, expected] of [
      ['ES', 'ES'],
      ['es', 'ES'],
      ['EU', 'EU'],
    ]) {
      const res = await get(`/funding/v1/search?country=${param}&per_page=100`);
      assert.equal(res.status, 200);
      assert.ok(res.json.data.length > 0, param);
      for (const call of res.json.data) assert.equal(call.country, expected);
    }
    const none = await get('/funding/v1/search?country=JP');
    assert.equal(none.status, 200);
    assert.deepEqual(none.json.data, []);
    assert.equal(none.json.meta.total, 0);
  });

  test('source filter', async () => {
    for (const source of ['eu', 'bdns', 'boe']) {
      const res = await get(`/funding/v1/search?source=${source}&per_page=100`);
      assert.equal(res.status, 200);
      for (const call of res.json.data) assert.equal(call.source, source);
    }
  });

  test('sorts: deadline ascending with no-deadline last, -deadline descending', async () => {
    const asc = await get('/funding/v1/search?sort=deadline&per_page=100');
    const deadlines = asc.json.data.map((c: { deadline: string | null }) => c.deadline);
    const firstNull = deadlines.indexOf(null);
    if (firstNull !== -1)
      assert.ok(
        deadlines.slice(firstNull).every((d: string | null) => d === null),
        'calls without a deadline come last',
      );
    const dated = deadlines.filter(Boolean);
    assert.ok(dated.length > 1);
    const desc = await get('/funding/v1/search?sort=-deadline&per_page=100');
    const descDated = desc.json.data.map((c: { deadline: string | null }) => c.deadline).filter(Boolean);
    assert.ok(descDated[0] >= descDated[descDated.length - 1]);
  });

  test('text: words, accents, phrases, OR, prefix', async () => {
    const all = await get('/funding/v1/search?per_page=100');
    const title: string =
      all.json.data.find((c: { language: string }) => c.language === 'es')?.title ?? all.json.data[0].title;
    const word = title.split(/[^\p{L}]+/u).filter((w) => w.length > 5)[0]!;
    const folded = word.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    const res = await get(`/funding/v1/search?q=${encodeURIComponent(folded)}`);
    assert.equal(res.status, 200);
    assert.ok(res.json.data.length > 0, `accent- and case-insensitive match for ${folded}`);
    // Quoted: the word alone (a bare word also finds its glossary terms, which a prefix does not).
    const literal = await get(`/funding/v1/search?q=${encodeURIComponent(`"${folded}"`)}`);
    const prefix = await get(`/funding/v1/search?q=${encodeURIComponent(word.slice(0, 4) + '*')}`);
    assert.ok(
      prefix.json.meta.total >= literal.json.meta.total && literal.json.meta.total > 0,
      'a prefix matches at least what the word matches',
    );
    const either = await get(`/funding/v1/search?q=${encodeURIComponent(word + ' OR zzzznomatchzzzz')}`);
    assert.equal(either.json.meta.total, res.json.meta.total);
    const both = await get(`/funding/v1/search?q=${encodeURIComponent(word + ' zzzznomatchzzzz')}`);
    assert.equal(both.json.meta.total, 0, 'all words must match');
    const phrase = await get(
      `/funding/v1/search?q=${encodeURIComponent(`"${title.split(' ').slice(0, 2).join(' ')}"`)}`,
    );
    assert.equal(phrase.status, 200);
    assert.ok(phrase.json.meta.total >= 1, 'a phrase from a title finds it');
  });

  test('input FTS5 could not parse is quoted safely', async () => {
    for (const q of ['COVID-19', 'a:b', '(solar', 'NEAR(x y)', '"', 'x AND NOT y', '^start', '*']) {
      const res = await get(`/funding/v1/search?q=${encodeURIComponent(q)}`);
      assert.ok(res.status === 200 || res.status === 400, `${q}: ${res.status}`);
      if (res.status === 400) assert.equal(res.json.error, 'bad_request');
    }
  });

  test('paging by page and by cursor give the same results', async () => {
    const first = await get('/funding/v1/search?per_page=2&sort=deadline');
    assert.equal(first.json.data.length, 2);
    assert.ok(first.json.meta.next_cursor, 'more results: a cursor');
    const byCursor = await get(`/funding/v1/search?per_page=2&sort=deadline&cursor=${first.json.meta.next_cursor}`);
    const byPage = await get('/funding/v1/search?per_page=2&sort=deadline&page=2');
    assert.deepEqual(
      byCursor.json.data.map((c: { id: string }) => c.id),
      byPage.json.data.map((c: { id: string }) => c.id),
    );
    assert.equal(byCursor.json.meta.page, 2);
    const last = await get(`/funding/v1/search?per_page=100&country=EU`);
    assert.ok(last.json.meta.total > 0 && last.json.meta.total <= 100);
    assert.equal(last.json.meta.next_cursor, null, "the demo's EU calls fit in one page of 100: no cursor");
  });

  test('bounds accepted: per_page 1 and 100, page 1 and 500, q of 1 and 200 characters', async () => {
    for (const query of ['per_page=1', 'per_page=100', 'page=1', 'page=500', 'q=a', `q=${'a'.repeat(200)}`]) {
      const res = await get(`/funding/v1/search?${query}`);
      assert.equal(res.status, 200, query);
    }
    const beyond = await get('/funding/v1/search?page=500');
    assert.deepEqual(beyond.json.data, []);
  });
});

describe("invalid searches: 400 bad_request naming the parameter, in the document's error shape", () => {
  const cases: Array<[string, string, RegExp]> = [
    ['q empty', 'q=', /'q'/],
    ['q too long', `q=${'a'.repeat(201)}`, /'q'.*1 to 200/],
    ['q with nothing searchable', 'q=%22%22', /'q'.*no searchable words/],
    ['q with a dangling OR', 'q=solar%20OR', /'q'.*OR must stand between/],
    ['country of three letters', 'country=ESP', /'country'/],
    ['country with digits', 'country=1A', /'country'/],
    ['status unknown', 'status=pending', /'status'.*open, forthcoming, closed/],
    ['sort unknown', 'sort=title', /'sort'.*relevance, deadline, -deadline, published/],
    ['per_page 0', 'per_page=0', /'per_page'.*1 to 100/],
    ['per_page 101', 'per_page=101', /'per_page'.*1 to 100/],
    ['per_page not a number', 'per_page=ten', /'per_page'/],
    ['per_page a float', 'per_page=2.5', /'per_page'/],
    ['page 0', 'page=0', /'page'.*1 to 500/],
    ['page 501', 'page=501', /'page'.*1 to 500/],
    ['cursor garbage', 'cursor=abc', /'cursor'/],
    ['cursor with page', 'page=1&cursor=abc', /'cursor'|'page'/],
    ['unknown parameter', 'limit=5', /Unknown query parameter 'limit'/],
    ['repeated parameter', 'status=open&status=closed', /'status' is given more than once/],
    ['source unknown', 'source=cordis', /'source'/],
    ['control characters echoed safely', 'x%00y=1', /Unknown query parameter 'x\\u0000y'/],
  ];
  for (const [name, query, message] of cases) {
    test(name, async () => {
      const res = await get(`/funding/v1/search?${query}`);
      assert.equal(res.status, 400);
      assert.equal(res.json.error, 'bad_request');
      assert.match(res.json.message, message);
      assert.deepEqual(Object.keys(res.json).sort(), ['error', 'message']);
      assert.equal(res.headers.get('x-api-tier'), 'anonymous', 'accounting headers on errors too');
    });
  }

  test('a cursor from another query is refused', async () => {
    const first = await get('/funding/v1/search?per_page=1&sort=deadline');
    const res = await get(`/funding/v1/search?per_page=1&sort=published&cursor=${first.json.meta.next_cursor}`);
    assert.equal(res.status, 400);
    assert.match(res.json.message, /'cursor'/);
  });
});
