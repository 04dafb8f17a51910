/**
 * What grant seekers type, end to end over HTTP on the hand-made trap fixtures (issue 13; the real
 * corpus's own queries are tests/e2e/funding/relevance.test.ts): plurals and other forms,
 * accents, Spanish and English, the glossary, identifiers, operators in any case, prefixes inside
 * phrases, fields (programme, funder, region), field weights, sorts by the served deadline, filters,
 * and /export in the sort it documents. Expected sets are cross-checked against other queries or the
 * calls' own fields, not hard-coded where the corpus says it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setSubscription } from '../../../db/accounts.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let proHeaders: Record<string, string>;
before(async () => {
  server = await startTestServer({ inProcess: true, fundingCorpus: 'traps' });
  const pro = accountWithKey(server.app.db, 'funding', server.clock.ms);
  setSubscription(server.app.db, pro.account.id, 'pro', server.clock.ms);
  proHeaders = { 'x-api-key': pro.key };
});
after(() => server.cleanup());

interface Call {
  id: string;
  title: string;
  deadline: string | null;
  status: string;
  country: string;
  region: string | null;
  programme: string | null;
  funder: string | null;
  published_on: string | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a parsed JSON body, read field by field below
const search = async (query: string): Promise<{ status: number; calls: Call[]; total: number; json: any }> => {
  server.clock.advance(1_100); // stay under the anonymous minute limit
  const res = await server.get(`/funding/v1/search?per_page=100&${query}`);
  return { status: res.status, calls: res.json.data ?? [], total: res.json.meta?.total ?? 0, json: res.json };
};
/** The calls matching every word (a partial match, named in meta.not_matching, is not one of them). */
const ids = async (query: string) => {
  const res = await search(query);
  assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.json)}`);
  const partial = (res.json.meta as { not_matching: Record<string, string[]> }).not_matching;
  return res.calls
    .map((c) => c.id)
    .filter((id) => !(id in partial))
    .sort();
};
const q = (text: string) => `q=${encodeURIComponent(text)}`;

describe('forms of a word find the same calls', () => {
  const pairs: Array<[string, string]> = [
    ['ayuda', 'ayudas'],
    ['subvención', 'subvenciones'],
    ['subvencion', 'SUBVENCIONES'],
    ['fellowship', 'fellowships'],
    ['investigación', 'investigacion'],
    ['energía', 'energias'],
    ['convocatoria', 'convocatorias'],
  ];
  for (const [a, b] of pairs) {
    test(`${a} = ${b}`, async () => {
      const [x, y] = [await ids(q(a)), await ids(q(b))];
      assert.ok(x.length > 0, `${a} finds calls`);
      assert.deepEqual(x, y);
    });
  }
});

describe('the glossary joins Spanish and English funding terms', () => {
  test('hidrógeno finds the hydrogen calls (English titles) and hydrogen the Spanish one', async () => {
    const es = await ids(q('hidrógeno'));
    const en = await ids(q('hydrogen'));
    assert.deepEqual(es, en);
    assert.ok(es.includes('eu:HORIZON-JU-CLEANH2-2027-02-01'), 'an English title: "Renewable hydrogen valleys"');
    assert.ok(es.includes('bdns:916318'), 'a Spanish title: "hidrógeno verde"');
  });
  test('grant, ayuda and subvención are one term; SME and pyme too', async () => {
    assert.deepEqual(await ids(q('grant')), await ids(q('subvención')));
    assert.deepEqual(await ids(q('SME')), await ids(q('pymes')));
  });
  test('a quoted word is taken literally (no glossary)', async () => {
    const literal = await ids(q('"hidrógeno"'));
    assert.ok(literal.includes('bdns:916318'));
    assert.ok(!literal.includes('eu:HORIZON-JU-CLEANH2-2027-02-01'));
  });
});

describe('operators in any case', () => {
  test('-term excludes: ayudas -vino is ayudas without the wine call', async () => {
    const all = await ids(q('ayudas'));
    const wine = await ids(q('ayudas vino'));
    assert.ok(wine.length > 0, 'the demo has a wine call');
    const without = await ids(q('ayudas -vino'));
    assert.deepEqual(
      without,
      all.filter((id) => !wine.includes(id)),
    );
    for (const form of ['ayudas not vino', 'ayudas NOT vino', 'ayudas Not vino'])
      assert.deepEqual(await ids(q(form)), without, form);
  });
  test('or / OR: the union; and / AND: the intersection', async () => {
    const a = await ids(q('hidrógeno'));
    const b = await ids(q('cáncer'));
    const union = [...new Set([...a, ...b])].sort();
    for (const form of ['hidrógeno or cáncer', 'hidrógeno OR cáncer', 'hidrógeno | cáncer'])
      assert.deepEqual(await ids(q(form)), union, form);
    const both = a.filter((id) => b.includes(id));
    for (const form of ['hidrógeno and cáncer', 'hidrógeno AND cáncer', 'hidrógeno cáncer'])
      assert.deepEqual(await ids(q(form)), both, form);
  });
  test('a prefix inside a phrase: "energ* renovable"', async () => {
    const found = await ids(q('"energ* renovable"'));
    assert.ok(found.includes('bdns:916318'), '"energía renovable"');
    assert.deepEqual(await ids(q('"renovable energ*"')), []);
  });
  test('a query of only exclusions, or a dangling operator, is a 400 naming q', async () => {
    for (const text of ['-vino', 'not vino', 'ayudas or', 'or']) {
      const res = await search(q(text));
      assert.equal(res.status, 400, text);
      assert.equal(res.json.error, 'bad_request');
      assert.match(res.json.message, /'q'/);
    }
  });
});

describe('identifiers, programme, funder and region are searched', () => {
  test('a topic identifier finds its call, with or without the eu: prefix, in any case', async () => {
    for (const text of [
      'HORIZON-MISS-2026-02-CANCER-05',
      'horizon-miss-2026-02-cancer-05',
      'eu:HORIZON-MISS-2026-02-CANCER-05',
      'EU:horizon-miss-2026-02-cancer-05',
    ]) {
      const res = await search(q(text));
      assert.equal(res.status, 200, text);
      assert.equal(res.calls[0]?.id, 'eu:HORIZON-MISS-2026-02-CANCER-05', text);
    }
  });
  test('a BDNS number finds its call, alone or as bdns:N', async () => {
    for (const text of ['916318', 'bdns:916318']) assert.deepEqual(await ids(q(text)), ['bdns:916318'], text);
  });
  test('a programme name finds its calls: "Horizon Europe"', async () => {
    const res = await search(q('"Horizon Europe"'));
    assert.ok(res.calls.length > 0);
    for (const c of res.calls) assert.match(`${c.programme} ${c.title}`, /Horizon Europe/i, c.id);
    const all = (await search('country=EU')).calls.filter((c) => /Horizon Europe/.test(c.programme ?? ''));
    assert.deepEqual(res.calls.map((c) => c.id).sort(), all.map((c) => c.id).sort(), 'every Horizon Europe call');
  });
  test('a funder finds its calls', async () => {
    const found = await search(q('Consejería de Economía'));
    assert.ok(found.calls.some((c) => c.id === 'bdns:916318'));
  });
  test('a region, as text or as the region filter (accents and case folded)', async () => {
    const byText = await ids(q('Madrid'));
    const byFilter = await ids('region=madrid');
    assert.ok(byFilter.includes('bdns:916318') && byFilter.includes('bdns:915500'));
    for (const id of byFilter) assert.ok(byText.includes(id), id);
    for (const c of (await search('region=MADRID')).calls) assert.match(c.region!, /madrid/i);
    assert.deepEqual(await ids(`region=madrid&${q('hidrógeno')}`), ['bdns:916318']);
    assert.deepEqual(await ids('region=Barcelona'), ['bdns:913870']);
  });
});

describe('ranking and sorting', () => {
  test('an identifier or title match ranks above a body match', async () => {
    const res = await search(q('hidrógeno'));
    const titled = res.calls.map((c) => /hidr[oó]geno|hydrogen/i.test(c.title));
    const firstUntitled = titled.indexOf(false);
    assert.ok(
      firstUntitled === -1 || titled.slice(firstUntitled).every((t) => !t),
      `title matches first: ${JSON.stringify(res.calls.map((c) => c.title))}`,
    );
  });
  test('sort=deadline orders by the deadline served (the next cut-off), soonest first, undated last', async () => {
    const res = await search('sort=deadline');
    const deadlines = res.calls.map((c) => c.deadline);
    const dated = deadlines.filter((d): d is string => d !== null);
    assert.deepEqual(dated, [...dated].sort());
    assert.deepEqual(
      deadlines.slice(dated.length),
      deadlines.filter((d) => d === null),
      'undated last',
    );
    // The call with three cut-offs serves its second one (2027-01-20), not its last (2027-05-04).
    const multi = res.calls.find((c) => c.id === 'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')!;
    assert.equal(multi.deadline, '2027-01-20');
    const after = res.calls[res.calls.indexOf(multi) + 1]!;
    assert.ok(after.deadline! >= '2027-01-20' && after.deadline! < '2027-05-04', `${after.id} ${after.deadline}`);
  });
  test('-deadline: latest first, undated last; published: newest first', async () => {
    const desc = (await search('sort=-deadline')).calls.map((c) => c.deadline);
    const dated = desc.filter((d): d is string => d !== null);
    assert.deepEqual(dated, [...dated].sort().reverse());
    assert.ok(desc.slice(dated.length).every((d) => d === null));
    const pub = (await search('sort=published')).calls.map((c) => c.published_on ?? '');
    assert.deepEqual(pub, [...pub].sort().reverse());
  });
  test("the README's examples return results", async () => {
    const first = await search(`${q('energía')}&status=open&sort=deadline`);
    assert.ok(first.calls.length > 0);
    for (const c of first.calls) assert.equal(c.status, 'open');
    assert.ok((await search(`${q('"hidrógeno verde" OR hydrogen')}&country=ES`)).calls.length > 0);
    server.clock.advance(1_100);
    assert.equal((await server.get('/funding/v1/calls/eu:HORIZON-CL5-2027-D3-01-05')).status, 200);
  });
});

describe('deadline window', () => {
  test('deadline_from and deadline_to keep calls whose served deadline is in the window, inclusive', async () => {
    const all = (await search('sort=deadline')).calls;
    const inWindow = all
      .filter((c) => c.deadline !== null && c.deadline >= '2027-01-20' && c.deadline <= '2027-02-26')
      .map((c) => c.id)
      .sort();
    assert.ok(inWindow.length >= 2);
    assert.deepEqual(await ids('deadline_from=2027-01-20&deadline_to=2027-02-26'), inWindow);
    assert.deepEqual(
      await ids('deadline_to=2027-01-19'),
      all
        .filter((c) => c.deadline !== null && c.deadline <= '2027-01-19')
        .map((c) => c.id)
        .sort(),
    );
  });
  test('bad windows are a 400 naming the parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['deadline_from=2027-02-30', /'deadline_from'/],
      ['deadline_to=31/12/2026', /'deadline_to'/],
      ['deadline_from=2027-03-01&deadline_to=2027-02-01', /'deadline_to'.*before/],
      ['region=%20-%20', /'region'/],
    ];
    for (const [query, message] of cases) {
      const res = await search(query);
      assert.equal(res.status, 400, query);
      assert.match(res.json.message, message, query);
    }
  });
});

test('/export honours sort: the same calls in the same order as /search', async () => {
  for (const sort of ['deadline', '-deadline', 'published']) {
    const page = (await search(`sort=${sort}`)).calls.map((c) => c.id);
    server.clock.advance(1_100);
    const res = await server.get(`/funding/v1/export?sort=${sort}`, proHeaders);
    assert.equal(res.status, 200);
    const exported = res.text
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as Call).id);
    assert.deepEqual(exported, page, sort);
  }
});

// Last: it moves the clock past a cut-off (served deadlines only move forward, as time does).
test('when a cut-off passes, the call sorts by its next one', async () => {
  const clock = server.clock.ms;
  server.clock.set('2027-01-21T12:00:00Z');
  try {
    const res = await search('status=open&sort=deadline');
    const deadlines = res.calls.map((c) => c.deadline!);
    assert.deepEqual(deadlines, [...deadlines].sort());
    assert.equal(res.calls.find((c) => c.id === 'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')?.deadline, '2027-05-04');
  } finally {
    server.clock.ms = clock;
  }
});
