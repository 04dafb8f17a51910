/**
 * Issue 13's data rules over HTTP on the hand-made trap fixtures (fixtures/funding/traps.json): grants to persons (from a BDNS list page, from
 * details) never reach search, /calls, /export, counts, the index or the explorer, and a
 * `reapply-rules` run takes effect on a running server; computed and uncomputed deadlines with their
 * deadline_source, and status following them; BOE notices that are not calls, served only in their
 * call's `notices`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setSubscription } from '../../../db/accounts.ts';
import { reapplyFundingRules } from '../../../db/funding/rules.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
let proKey: string;
before(async () => {
  server = await startTestServer({ inProcess: true, fundingCorpus: 'traps' });
  const pro = accountWithKey(server.app.db, 'funding', server.clock.ms);
  setSubscription(server.app.db, pro.account.id, 'pro', server.clock.ms);
  proKey = pro.key;
});
after(() => server.cleanup());

const asPro = (path: string) => server.get(path, { 'x-api-key': proKey });
const call = async (id: string) => asPro(`/funding/v1/calls/${encodeURIComponent(id)}`);
const LIST_PAGE_PERSONS = ['bdns:917301', 'bdns:917302'];
const NOT_PERSONS = ['bdns:917310', 'bdns:917311', 'bdns:917312'];

/** Every way the API and the explorer can show the corpus, as text. */
async function everything(): Promise<string[]> {
  const texts: string[] = [];
  for (const q of [
    '',
    'q=zzpersonafisica&',
    'q=Castro&',
    'q=rehabilitaci%C3%B3n&',
    'source=bdns&',
    'status=open&',
    'status=closed&',
  ]) {
    texts.push((await asPro(`/funding/v1/search?${q}per_page=100`)).text);
  }
  texts.push((await asPro('/funding/v1/export')).text, (await asPro('/funding/v1/export?format=csv')).text);
  // The explorer echoes q in its search box: the page for the person's name must list no call.
  const echoed = (await server.get('/explore/funding?q=zzpersonafisica')).text;
  assert.doesNotMatch(echoed, /<li class="call">/);
  const listed = await server.get('/explore/funding?source=bdns&per_page=100');
  assert.equal(listed.status, 200);
  assert.match(
    listed.text,
    /explore\/funding\/calls\/bdns%3A917310/,
    'the explorer lists the BDNS calls, the look-alikes among them',
  );
  texts.push(listed.text);
  server.clock.advance(60_000); // the explorer counts against the anonymous minute
  return texts;
}

describe('personal data', () => {
  test('grants to persons named on a BDNS list page are absent from every response; the look-alikes are served', async () => {
    for (const id of LIST_PAGE_PERSONS) {
      assert.equal((await call(id)).status, 404, id);
      assert.equal(
        (await server.get(`/explore/funding/calls/${encodeURIComponent(id)}`)).status,
        404,
        `${id} explorer`,
      );
    }
    for (const text of await everything()) {
      assert.doesNotMatch(text, /zzpersonafisica/i);
      for (const id of LIST_PAGE_PERSONS) assert.ok(!text.includes(id), id);
    }
    for (const id of NOT_PERSONS) {
      const res = await call(id);
      assert.equal(res.status, 200, `${id}: ${res.text}`);
      assert.doesNotMatch(res.json.data.title, /zzpersonafisica/i);
    }
    const juana = await asPro('/funding/v1/search?q=%22Fundaci%C3%B3n%20Do%C3%B1a%20Juana%22');
    assert.deepEqual(
      juana.json.data.map((c: { id: string }) => c.id),
      ['bdns:917310'],
    );
  });

  test('counts agree: /sources, meta.total and the export count public calls only', async () => {
    const db = server.app.db;
    const publicBdns = db
      .prepare("SELECT count(*) FROM funding_calls WHERE source = 'bdns' AND personal_data = 0")
      .pluck()
      .get() as number;
    const withheld = db
      .prepare("SELECT count(*) FROM funding_calls WHERE source = 'bdns' AND personal_data = 1")
      .pluck()
      .get() as number;
    assert.equal(withheld, 3, '910777 (masked NIF, list and detail) and the two list-page person grants');
    const sources = (await asPro('/funding/v1/sources')).json.data;
    assert.equal(sources.find((s: { code: string }) => s.code === 'bdns').records, publicBdns);
    assert.equal((await asPro('/funding/v1/search?source=bdns&per_page=1')).json.meta.total, publicBdns);
    const exported = (await asPro('/funding/v1/export?source=bdns')).text.trim().split('\n');
    assert.equal(exported.length, publicBdns);
  });

  test('reapply-rules on a running server: a newly withheld call leaves cached searches at once', async () => {
    const before = await asPro('/funding/v1/search?q=Quijote');
    assert.deepEqual(
      before.json.data.map((c: { id: string }) => c.id),
      ['bdns:917311'],
    );
    // A rule change, simulated: the stored title now names a person (as a corrected source would).
    server.app.db
      .prepare(
        "UPDATE funding_calls SET title = 'Premio concedido a D. Álvaro ZZPERSONAFISICA Quijote Ruiz' WHERE id = 'bdns:917311'",
      )
      .run();
    const run = reapplyFundingRules(server.app.db, server.clock.ms);
    assert.deepEqual(run.withheld_ids, ['bdns:917311']);
    const afterRun = await asPro('/funding/v1/search?q=Quijote');
    assert.deepEqual(afterRun.json.data, []);
    assert.equal((await call('bdns:917311')).status, 404);
  });
});

describe('deadlines', () => {
  test('a BDNS call counted from its BOE extract: computed in días hábiles, open, then closed', async () => {
    const res = await call('bdns:916204');
    assert.equal(res.status, 200);
    const c = res.json.data;
    assert.equal(c.deadline, '2026-12-15');
    assert.equal(c.deadline_time, null);
    assert.deepEqual(c.cutoffs, [], 'the source stated no cut-off');
    assert.equal(c.deadline_source.kind, 'computed');
    assert.equal(c.deadline_source.from, '2026-11-16');
    assert.equal(c.deadline_source.publication, 'BOE-B-2026-41210');
    assert.match(c.deadline_source.rule, /^20 días hábiles/);
    assert.match(c.deadline_source.text, /^Veinte días hábiles/);
    assert.match(c.deadline_source.calendar[0], /2026/);
    assert.equal(c.status, 'open');
    assert.ok(
      c.notices.some((n: { id: string; kind: string }) => n.id === 'BOE-B-2026-41210' && n.kind === 'call'),
      'its extract is listed',
    );
    const soon = await asPro('/funding/v1/search?status=open&sort=deadline&per_page=100');
    assert.ok(soon.json.data.some((x: { id: string }) => x.id === 'bdns:916204'));
    // 16 December 00:30 in Madrid: closed by the computed deadline, filters agree.
    server.clock.set('2026-12-15T23:30:00Z');
    assert.equal((await call('bdns:916204')).json.data.status, 'closed');
    const closed = await asPro('/funding/v1/search?status=closed&per_page=100');
    assert.ok(closed.json.data.some((x: { id: string }) => x.id === 'bdns:916204'));
    server.clock.set('2026-11-22T10:00:00Z');
  });

  test('a BOE call of "treinta días naturales" published in 2025 is closed with its computed day', async () => {
    const c = (await call('boe:BOE-A-2025-22110')).json.data;
    assert.equal(c.deadline, '2025-12-03');
    assert.equal(c.status, 'closed');
    assert.deepEqual(
      [c.deadline_source.kind, c.deadline_source.from, c.deadline_source.publication],
      ['computed', '2025-11-03', 'BOE-A-2025-22110'],
    );
    assert.match(c.deadline_source.rule, /^30 días naturales/);
    const open = await asPro('/funding/v1/search?status=open&per_page=100');
    assert.ok(!open.json.data.some((x: { id: string }) => x.id === 'boe:BOE-A-2025-22110'));
  });

  test('a deadline counted from a regional bulletin is uncomputed, with the reason; a stated one says so', async () => {
    const dogc = (await call('bdns:913870')).json.data;
    assert.equal(dogc.deadline, null);
    assert.equal(dogc.deadline_source.kind, 'uncomputed');
    assert.match(
      dogc.deadline_source.reason,
      /Diari Oficial de la Generalitat de Catalunya, and the record names no such publication/,
    );
    assert.equal(dogc.deadline_source.text, dogc.deadline_text);
    const stated = (await call('bdns:912345')).json.data;
    assert.deepEqual(stated.deadline_source, { kind: 'stated' });
    const csv = (await asPro('/funding/v1/export?format=csv&source=bdns')).text.split('\r\n');
    assert.equal(csv[0]!.split(',').at(-1), 'deadline_source', 'CSV: the kind, in the last column');
    assert.ok(csv.find((l) => l.startsWith('bdns:916204,'))!.endsWith(',computed'));
    assert.ok(csv.find((l) => l.startsWith('bdns:912345,'))!.endsWith(',stated'));
    const none = (await call('bdns:914002')).json.data;
    assert.equal(none.deadline_source, null, 'a list-only call: the source said nothing about a deadline');
    const search = await asPro('/funding/v1/search?source=bdns&per_page=100');
    const byId = new Map(search.json.data.map((x: { id: string }) => [x.id, x]));
    assert.deepEqual(
      (byId.get('bdns:913870') as { deadline_source: unknown }).deadline_source,
      dogc.deadline_source,
      'search shows the same',
    );
  });
});

describe('notices that are not calls', () => {
  test('bases, award resolutions and corrections are not calls: absent from search, 404 as calls', async () => {
    for (const id of ['BOE-A-2025-22101', 'BOE-A-2025-22102', 'BOE-A-2026-23877', 'BOE-B-2026-41233']) {
      assert.equal((await call(`boe:${id}`)).status, 404, id);
    }
    const all = await asPro('/funding/v1/search?source=boe&per_page=100');
    for (const c of all.json.data)
      assert.doesNotMatch(c.title, /bases reguladoras|Corrección de errores|por la que se conceden|se modifica/i, c.id);
    const bases = await asPro('/funding/v1/search?q=%22bases%20reguladoras%22&per_page=100');
    assert.ok(!bases.json.data.some((c: { source: string }) => c.source === 'boe'));
  });

  test('each notice is served in its call, with its kind: by BDNS id, and by the disposition it corrects', async () => {
    const wine = (await call('boe:BOE-A-2025-22110')).json.data;
    assert.deepEqual(
      wine.notices.map((n: { id: string; kind: string }) => [n.id, n.kind]),
      [
        ['BOE-A-2025-22110', 'call'],
        ['BOE-A-2026-23877', 'correction'],
      ],
    );
    assert.ok(wine.attribution.some((a: { source: string }) => a.source === 'boe'));
    const aei = (await call('bdns:912345')).json.data;
    const kinds = aei.notices.map((n: { id: string; kind: string }) => [n.id, n.kind]);
    assert.deepEqual(kinds, [
      ['BOE-A-2025-22101', 'bases'],
      ['BOE-B-2026-41233', 'modification'],
    ]);
    const modification = aei.notices[1];
    assert.equal(modification.url, 'https://www.boe.es/diario_boe/txt.php?id=BOE-B-2026-41233');
    assert.equal(modification.published_on, '2026-11-16');
  });

  test('the explorer call page says how a deadline was obtained and what each notice is', async () => {
    server.clock.advance(60_000);
    const page = async (id: string) => (await server.get(`/explore/funding/calls/${encodeURIComponent(id)}`)).text;
    const hydrogen = await page('bdns:916204');
    assert.match(
      hydrogen,
      /Computed by this service: 20 días hábiles desde el día siguiente a la publicación \(Ley 39\/2015, art\. 30\), counted from BOE-B-2026-41210 published Mon,? 16 November 2026/,
    );
    assert.match(hydrogen, /<time datetime="2026-12-15">Tue,? 15 December 2026<\/time>/);
    assert.match(
      await page('bdns:913870'),
      /Not computed: it counts from the publication in Diari Oficial de la Generalitat de Catalunya/,
    );
    const wine = await page('boe:BOE-A-2025-22110');
    assert.match(wine, /<span class="notice-kind">Correction<\/span>, <time datetime="2026-11-16">/);
    assert.doesNotMatch(
      await page('bdns:912345'),
      /Computed by this service|Not computed/,
      'a stated deadline needs no note',
    );
  });
});
