/**
 * Issue 14, what a journalist checks before quoting, through the real server on the demo:
 * countries that can be told apart, a licence composed from the sources a response used, runs listed
 * whenever any scenario is published, 400 details that name what is accepted, lengths in characters,
 * every link in a response resolving on the server, and reach ranked in one unit.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { close, startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
});
after(() => server.cleanup());

const data = async (path: string) => {
  const res = await server.api(path);
  assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
  return res.json;
};

test('countries: COD and COG have names that tell them apart, in the country and the search', async () => {
  assert.equal((await data('/country/COD')).data.name, 'Congo, Democratic Republic of the');
  assert.equal((await data('/country/cog')).data.name, 'Congo');
  const matches = (await data('/search?q=congo')).data.matches.filter((m: Json) => m.type === 'country');
  assert.deepEqual(matches.map((m: Json) => m.key).sort(), ['COD', 'COG']);
  assert.equal(new Set(matches.map((m: Json) => m.name)).size, 2);
  const all = server.app.db.prepare('SELECT name FROM impact_countries').pluck().all() as string[];
  assert.equal(new Set(all).size, all.length, 'no two countries share a name');
});

describe('licence composed from the sources used', () => {
  test('a figure resting on SIPRI (S-ARMS) or ILOSTAT says it is not open and what each source allows', async () => {
    const body = await data('/product/assault-rifle?scenario=S-ARMS');
    const codes = body.sources.map((s: Json) => s.code);
    assert.ok(codes.includes('sipri-aid') && codes.includes('ilostat'), codes.join(','));
    assert.equal(body.licence.open, false);
    assert.notEqual(body.licence.name, 'CC BY 4.0');
    assert.match(body.licence.name, /SIPRI terms of use/);
    assert.match(body.licence.name, /ILOSTAT terms of use/);
    assert.deepEqual(
      body.licence.terms.map((t: Json) => t.source),
      codes,
      'one entry per source used',
    );
    const sipri = body.licence.terms.find((t: Json) => t.source === 'sipri-aid');
    assert.equal(sipri.open, false);
    assert.match(sipri.reuse, /not covered by CC BY 4\.0/);
    // Issue 24: the shipped ILOSTAT extract (April 2021) predates the ILO's CC BY 4.0 policy: it says so.
    const ilostat = body.licence.terms.find((t: Json) => t.source === 'ilostat');
    assert.equal(ilostat.open, false);
    assert.match(ilostat.licence, /before the ILO's CC BY 4\.0 policy of 3 May 2023/);
    const ucdp = body.licence.terms.find((t: Json) => t.source === 'ucdp-brd');
    assert.deepEqual([ucdp.open, /any purpose under CC BY 4\.0/.test(ucdp.reuse)], [true, true]);
    const usgs = body.licence.terms.find((t: Json) => t.source === 'usgs-mcs');
    assert.equal(usgs.open, true, 'U.S. public domain');
    const ecb = body.licence.terms.find((t: Json) => t.source === 'ecb-fx');
    assert.equal(ecb.open, true, 'ECB: free reuse with the source acknowledged');
    const restricted = body.caveats
      .filter((c: Json) => c.code === 'usage_restriction')
      .map((c: Json) => c.text)
      .join(' ');
    assert.ok(restricted.includes('sipri-aid') && restricted.includes('ilostat'), restricted);
    // UCDP's required citation is in the response's citation.
    assert.match(body.citation.text, /Davies, Shawn, Garoun Engström, Therese Pettersson & Magnus Öberg \(2024\)/);
  });

  test('a response that serves no figure is CC BY 4.0 with no source terms', async () => {
    const body = await data('/scenarios');
    assert.deepEqual(
      [body.licence.name, body.licence.open, body.licence.terms, body.licence.restrictions],
      ['CC BY 4.0', true, [], []],
    );
  });
});

describe('runs listed whenever any scenario is published', () => {
  let partial: ImpactServer;
  before(async () => {
    partial = await startImpactServer({ inProcess: true });
    partial.app.db.prepare("DELETE FROM impact_current_runs WHERE scenario <> 'S-RES'").run();
  });
  after(() => partial.cleanup());

  test('only S-RES published: /runs lists its run, per scenario; the index says S-RES has figures', async () => {
    const runs = (await partial.api('/runs')).json.data;
    const current = runs.runs.filter((r: Json) => r.current);
    assert.deepEqual(
      current.map((r: Json) => [r.id, r.scenario]),
      [[3, 'S-RES']],
    );
    assert.equal(runs.runs.length, 5, 'every run ever published stays listed (each stays citable by id)');
    const res = runs.scenarios.find((s: Json) => s.code === 'S-RES');
    assert.deepEqual([res.current_run, res.runs], [3, [3]]);
    assert.equal(runs.scenarios.find((s: Json) => s.code === 'S-MAX').current_run, null);
    for (const r of runs.runs) assert.equal((await partial.api(`/runs/${r.id}`)).status, 200, `run ${r.id} resolves`);
    const index = (await partial.api('/')).json.data;
    assert.equal(index.figures_published, true);
    assert.deepEqual(
      index.scenarios.filter((s: Json) => s.figures_published).map((s: Json) => [s.code, s.run]),
      [['S-RES', 3]],
    );
  });

  test('nothing published: /runs is empty and the index says no scenario has figures', async () => {
    const none = await startImpactServer({ published: false, inProcess: true });
    try {
      assert.deepEqual((await none.api('/runs')).json.data.runs, []);
      const index = (await none.api('/')).json.data;
      assert.equal(index.figures_published, false);
      assert.ok(index.scenarios.every((s: Json) => s.figures_published === false && s.run === null));
    } finally {
      await none.cleanup();
    }
  });
});

test('400 for a missing parameter names it and what it accepts', async () => {
  const cases: Array<[string, RegExp]> = [
    ['/compare?b=laptop', /Missing required query parameter 'a': give a slug: lowercase letters/],
    ['/compare?a=laptop', /Missing required query parameter 'b': give a slug/],
    ['/search', /Missing required query parameter 'q': give text of 2 to 64 characters/],
  ];
  for (const [path, detail] of cases) {
    const res = await server.api(path);
    assert.equal(res.status, 400, path);
    assert.match(res.json.error.detail, detail, path);
  }
});

test('q is counted in characters, not UTF-16 units', async () => {
  const emoji = '😀';
  assert.equal(
    (await server.api(`/search?q=${encodeURIComponent(emoji.repeat(64))}`)).status,
    200,
    '64 characters (128 UTF-16 units) are accepted',
  );
  assert.equal(
    (await server.api(`/search?q=${encodeURIComponent(emoji.repeat(65))}`)).status,
    400,
    '65 characters are not',
  );
  assert.equal(
    (await server.api(`/search?q=${encodeURIComponent(emoji)}`)).status,
    400,
    'one character is too short although it is two units',
  );
  assert.equal((await server.api(`/search?q=${encodeURIComponent('é'.repeat(64))}`)).status, 200);
});

/** Every link a response carries: `links` objects' values, `url` fields, homepages that are paths. */
function linksIn(value: unknown, key = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => linksIn(v, key));
  if (typeof value === 'string')
    return (key === 'url' || key === 'homepage' || key === 'links') && value.startsWith('/') ? [value] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => linksIn(v, k === 'links' || key === 'links' ? 'links' : k));
}

test('every link in a response resolves on the server; the methodology document is the one its digest names', async () => {
  const pages = [
    '/',
    '/products',
    '/product/smartphone',
    '/product/smartphone/contributions',
    '/product/smartphone/explain',
    '/compare?a=smartphone&b=laptop',
    '/spend',
    '/material/cobalt',
    '/conflict/drc-east',
    '/country/COD',
    '/channel/C1',
    '/scenarios',
    '/runs',
    '/runs/1',
    '/methodology',
    '/sources',
    '/search?q=co',
  ];
  const seen = new Set<string>();
  for (const page of pages) {
    for (const link of linksIn((await data(page)).data).concat(linksIn((await data(page)).sources, 'links')))
      seen.add(link.split('#')[0]!);
  }
  assert.ok(seen.has('/impact/v1/methodology/v1'), 'the methodology document is linked');
  assert.ok([...seen].some((l) => l.startsWith('/impact/v1/runs/')));
  for (const link of seen) {
    assert.ok(link.startsWith('/impact/v1'), link);
    const res = await server.get(link, { authorization: `Bearer ${server.key}` });
    assert.equal(res.status, 200, `${link} resolves`);
  }
  const methodology = (await data('/methodology')).data.versions[0];
  assert.equal(methodology.links.document, '/impact/v1/methodology/v1');
  const doc = await server.api('/methodology/v1');
  assert.match(doc.headers.get('content-type')!, /^text\/markdown/);
  assert.equal(createHash('sha256').update(doc.text).digest('hex'), methodology.document_sha256);
  assert.equal(
    doc.text,
    readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'methodology', 'v1.md'), 'utf8'),
  );
  assert.ok(
    doc.text.includes('## The demo data set') || /demo data set/i.test(doc.text),
    'the section the bill-of-materials links point at',
  );
  const bom = (await data('/product/smartphone')).data.bill_of_materials;
  // An authored line links the demo data set; a line with cited figures links its first source.
  for (const l of bom)
    if (l.provenance.basis === 'illustrative')
      assert.equal(l.source.url, '/impact/v1/methodology/v1#the-demo-data-set');
    else assert.match(l.source.url, /^https?:\/\//);
  for (const code of ['v2', 'v3']) {
    const v = (await data('/methodology')).data.versions.find((x: Json) => x.code === code);
    const doc2 = await server.api(`/methodology/${code}`);
    assert.equal(createHash('sha256').update(doc2.text).digest('hex'), v.document_sha256);
    assert.match(doc2.text, /## 1\. What changed, what is published and what is assumed/);
  }
  // v3 leaves the place the bills-of-materials text is spliced into, and says what stays illustrative.
  const doc3 = (await server.api('/methodology/v3')).text;
  assert.match(doc3, /^## 5\. Bills of materials$/m);
  assert.match(doc3, /## 13\. What stays illustrative, product by product/);
  assert.equal((await server.api('/methodology/v9')).status, 404);
  assert.equal((await server.api('/methodology/V1!')).status, 400);
  assert.equal((await server.api('/methodology/v1', { 'if-none-match': doc.headers.get('etag')! })).status, 304);
});

test("reach ranks products per kg of product, unit stated, each figure its per-unit part divided by the product's mass", async () => {
  const masses = new Map<string, number>();
  for (const p of (await data('/products')).data.products) masses.set(p.slug, p.unit_mass_g);
  for (const path of [
    '/material/cobalt',
    '/conflict/drc-east',
    '/country/COD',
    '/channel/C2',
    '/material/gold?scenario=S-ARMS',
  ]) {
    const results = (await data(path)).data.results;
    assert.match(results.reach_order, /per kg of product/);
    for (const metric of ['deaths', 'injuries']) {
      const items = results.reach.filter((r: Json) => r.metric === metric);
      if (items.length === 0) continue;
      assert.equal(items[0].rank, 0);
      assert.equal(items[0].figure.unit, `${metric} per year`);
      const products = items.slice(1);
      assert.deepEqual(
        products.map((r: Json) => r.rank),
        products.map((_: Json, i: number) => i + 1),
        `${path} ${metric}: ranks 1…`,
      );
      for (const r of products) {
        assert.equal(r.figure.unit, `${metric} per kg`, `${path} ${r.product.slug}`);
        assert.notEqual(r.per_unit.unit, undefined);
        const kg = masses.get(r.product.slug)! / 1000;
        for (const q of ['low', 'median', 'high'] as const)
          assert.ok(
            close(r.figure[q], r.per_unit[q] / kg, 1e-12),
            `${path} ${r.product.slug} ${q}: per kg is per unit ÷ mass`,
          );
      }
      const means = products.map((r: Json) => r.figure.central ?? null);
      // Ordered by the mean per kg: where centrals are served, they never increase down the list.
      const served = means.filter((x: number | null): x is number => x !== null);
      for (let i = 1; i < served.length; i++)
        assert.ok(served[i]! <= served[i - 1]! * (1 + 1e-12), `${path} ${metric}: centrals per kg in order`);
    }
  }
});
