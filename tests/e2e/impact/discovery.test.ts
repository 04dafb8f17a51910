/**
 * Issue 14, discovery and bulk: /materials, /conflicts, /countries, /categories list what a researcher
 * would otherwise guess, each entry cross-checked against its own endpoint; /figures.csv exports every
 * headline figure of a scenario in one request, each row cross-checked against the JSON endpoint that
 * serves the same figure. Bad input is a clear 400, a withheld scenario a 404 (nothing to export).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csvRecords, parseCsv } from '../../helpers/csv.ts';
import { BASE, startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
let withheld: ImpactServer;
before(async () => {
  [server, withheld] = await Promise.all([
    startImpactServer({ inProcess: true }),
    startImpactServer({ published: false, inProcess: true }),
  ]);
});
after(async () => {
  await Promise.all([server.cleanup(), withheld.cleanup()]);
});

const data = async (path: string, s = server) => {
  const res = await s.api(path.startsWith(BASE) ? path.slice(BASE.length) : path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
  return res.json;
};
const db = () => server.app.db;

describe('lists', () => {
  test('/materials: every material once, by slug; each per-kg figure is the one /material/{slug} serves', async () => {
    for (const scenario of ['S-MAX', 'S-ARMS']) {
      const body = await data(`/materials?scenario=${scenario}`);
      const slugs = db().prepare('SELECT slug FROM impact_materials ORDER BY slug').pluck().all();
      assert.deepEqual(
        body.data.materials.map((m: Json) => m.slug),
        slugs,
      );
      assert.equal(body.data.count, slugs.length);
      assert.deepEqual(Object.keys(body.data.results.figures), slugs);
      for (const m of body.data.materials) {
        const one = (await data(`${m.links.self}?scenario=${scenario}`)).data;
        assert.equal(one.name, m.name);
        assert.equal(one.conflict_mineral.flag, m.conflict_mineral);
        assert.deepEqual(
          body.data.results.figures[m.slug],
          { deaths_per_kg: one.results.per_kg.deaths, injuries_per_kg: one.results.per_kg.injuries },
          `${scenario} ${m.slug}`,
        );
      }
      assert.ok(body.metrics.figures >= slugs.length, 'the figures are counted');
      assert.ok(body.sources.length > 0, 'their sources are listed');
    }
  });

  test('/conflicts: every conflict; each deaths-per-year figure is the reach total /conflict/{slug} serves', async () => {
    const body = await data('/conflicts');
    const slugs = db().prepare('SELECT slug FROM impact_conflicts ORDER BY slug').pluck().all();
    assert.deepEqual(
      body.data.conflicts.map((k: Json) => k.slug),
      slugs,
    );
    for (const k of body.data.conflicts) {
      const one = (await data(k.links.self)).data;
      assert.deepEqual([one.name, one.type, one.years], [k.name, k.type, k.years]);
      const total = one.results.reach.find((r: Json) => r.rank === 0 && r.metric === 'deaths');
      assert.deepEqual(body.data.results.figures[k.slug], total.figure, k.slug);
    }
  });

  test('/countries: exactly the countries with harm counted or production, with their ISO names; totals as /country/{iso3} serves them', async () => {
    const body = await data('/countries');
    const expected = db()
      .prepare(
        `SELECT iso3 FROM impact_countries WHERE iso3 IN (SELECT iso3 FROM impact_harm_counted UNION SELECT iso3 FROM impact_material_production) ORDER BY iso3`,
      )
      .pluck()
      .all();
    assert.deepEqual(
      body.data.countries.map((c: Json) => c.iso3),
      expected,
    );
    assert.ok(expected.length < 249, 'not every ISO country: only those with data');
    const cod = body.data.countries.find((c: Json) => c.iso3 === 'COD');
    assert.equal(cod.name, 'Congo, Democratic Republic of the');
    for (const c of body.data.countries) {
      const one = (await data(c.links.self)).data;
      assert.deepEqual([one.name, one.region, one.income_group], [c.name, c.region, c.income_group]);
      assert.equal(c.deaths_counted, one.records.harm_counted.deaths, `${c.iso3}: deaths counted`);
      assert.equal(c.data.harm_counted, one.records.harm_counted.channels.length > 0);
      const total = one.results.reach.find((r: Json) => r.rank === 0 && r.metric === 'deaths');
      assert.deepEqual(body.data.results.figures[c.iso3], total?.figure ?? null, c.iso3);
    }
  });

  test('/categories: every category with its number of products, as /products?category= lists them', async () => {
    const body = await data('/categories');
    const all = (await data('/products')).data.products;
    assert.equal(
      body.data.categories.reduce((a: number, c: Json) => a + c.products, 0),
      all.length,
    );
    for (const c of body.data.categories) {
      const listed = (await data(c.links.products)).data;
      assert.equal(listed.count, c.products, c.code);
      assert.ok(listed.products.every((p: Json) => p.category.code === c.code && p.category.name === c.name));
    }
    assert.equal(body.data.results, null);
  });

  test('withheld: the lists are served, results null', async () => {
    for (const path of ['/materials', '/conflicts', '/countries', '/categories']) {
      const body = await data(path, withheld);
      assert.equal(body.status, 'withheld', path);
      assert.equal(body.data.results, null, path);
      assert.ok(body.data.count > 0, path);
    }
  });

  test('bad input: a clear 400 naming the parameter and what it accepts', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/materials?scenario=S-NOPE', /scenario.*one of: S-MAX, S-EVID, S-RES, S-ARMS, S-CONS/],
      ['/conflicts?sort=name', /Unknown query parameter 'sort'. Accepted parameters: scenario/],
      ['/countries?scenario=S-MAX&scenario=S-RES', /given more than once/],
      ['/categories?scenario=S-MAX', /takes no query parameters/],
      ['/figures.csv?scenario=s-max', /scenario/],
      ['/figures.csv?format=json', /Unknown query parameter 'format'/],
    ];
    for (const [path, detail] of cases) {
      const res = await server.api(path);
      assert.equal(res.status, 400, path);
      assert.equal(res.json.error.code, 'bad_request', path);
      assert.match(res.json.error.detail, detail, path);
    }
  });
});

describe('/figures.csv', () => {
  test('one request against the allowance: every headline figure, each row as the JSON endpoint serves it', async () => {
    const anon = await server.anon('/scenarios');
    const before = Number(anon.headers.get('x-ratelimit-remaining'));
    const res = await server.anon('/figures.csv?scenario=S-ARMS');
    assert.equal(res.status, 200, res.text.slice(0, 300));
    assert.equal(Number(res.headers.get('x-ratelimit-remaining')), before - 1, 'one request counted');
    assert.match(res.headers.get('content-type')!, /^text\/csv/);
    assert.match(res.headers.get('content-disposition')!, /impact-figures-S-ARMS-run-4\.csv/);
    const rows = csvRecords(res.text);
    const header = parseCsv(res.text)[0]!;
    for (const column of [
      'display',
      'quotable',
      'low',
      'high',
      'run',
      'methodology_version',
      'sources',
      'credits',
      'citation',
      'licence',
    ])
      assert.ok(header.includes(column), column);
    const products = db().prepare('SELECT count(*) FROM impact_figures WHERE run_id = 4 AND subject_type = ?').pluck();
    assert.equal(rows.filter((r) => r.subject_type === 'product').length, products.get('product'));
    assert.equal(rows.filter((r) => r.subject_type === 'material').length, products.get('material'));
    const pages = new Map<string, Json>();
    for (const r of rows as Json[]) {
      assert.ok(r.display && r.low && r.high && r.median && r.grade, `${r.key}: a complete figure`);
      assert.deepEqual([r.scenario, r.run, r.methodology_version], ['S-ARMS', '4', 'v3']);
      assert.match(r.citation, new RegExp(`run 4, methodology v3`));
      assert.ok(r.citation.includes(r.url), 'the citation names the endpoint serving the same figure');
      if (!pages.has(r.url)) pages.set(r.url, await server.api(r.url.slice(BASE.length)).then((x) => x.json));
      const page = pages.get(r.url);
      const f =
        r.subject_type === 'product' ? page.metrics[`${r.metric}_${r.basis}`] : page.data.results.per_kg[r.metric];
      assert.ok(f, `${r.url} ${r.metric} ${r.basis}`);
      assert.deepEqual(
        [
          r.display,
          Number(r.low),
          Number(r.median),
          Number(r.high),
          r.central === '' ? null : Number(r.central),
          r.grade,
          r.unit,
          r.quotable,
          r.rests_on_published === '' ? null : Number(r.rests_on_illustrative),
        ],
        [
          f.display,
          f.low,
          f.median,
          f.high,
          f.central,
          f.grade,
          f.unit,
          f.quotable,
          f.provenance?.illustrative ?? null,
        ],
        `${r.url} ${r.metric} ${r.basis}: the same figure, quotable and provenance`,
      );
      // Issue 24: each row carries its sources, the licence composed from them and their credits.
      const sources = page.sources.map((s: Json) => s.code);
      for (const code of r.sources.split(' '))
        assert.ok(sources.includes(code), `${r.url}: ${code} is among the page's sources`);
      for (const code of r.sources.split(' ')) {
        const credit = page.sources.find((s: Json) => s.code === code)?.credit;
        if (credit) assert.ok(r.credits.includes(credit), `${r.key}: ${code}'s credit`);
      }
      assert.ok(r.licence === 'CC BY 4.0' || /^Not an open licence/.test(r.licence), r.licence);
      if (r.subject_type === 'product' && r.key === 'assault-rifle')
        assert.match(r.licence, /SIPRI/, "the row's licence names the restriction its sources carry");
    }
  });

  test('ETag and 304; HEAD; a withheld scenario has nothing to export (404 naming those that have)', async () => {
    const res = await server.api('/figures.csv');
    assert.match(res.headers.get('content-disposition')!, /S-MAX-run-1/);
    assert.equal(
      (await server.api('/figures.csv?scenario=S-MAX', { 'if-none-match': res.headers.get('etag')! })).status,
      304,
    );
    const head = await server.request('HEAD', `${BASE}/figures.csv`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.deepEqual(
      [head.status, head.text, head.headers.get('content-length')],
      [200, '', res.headers.get('content-length')],
    );
    const none = await withheld.api('/figures.csv');
    assert.equal(none.status, 404);
    assert.match(none.json.error.detail, /S-MAX has no published run/);
    assert.match(none.json.error.detail, /No scenario has figures yet/);
  });
});
