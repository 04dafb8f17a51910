/**
 * Issue 14: the explorer's register pages (materials, conflicts, countries; a list and a page each) over
 * HTTP against the real server. Every figure a page shows is the one the API serves for the same request
 * (asked of the API itself, with a key); each page makes one API call; a withheld scenario is shown as
 * withheld with the API's reason; a bad scenario or an unknown slug is the API's 400 or 404 on a page,
 * never a 500; every table is a `stack` table whose cells are labelled by their column (for phones).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../../../lib/html.ts';
import { formatSig } from '../../../lib/impact/figure.ts';
import { startImpactServer, type ImpactServer } from '../impact/harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
  server.app.db.prepare("DELETE FROM impact_current_runs WHERE scenario = 'S-RES'").run();
});
after(() => server.cleanup());

let day = 0;
const newDay = () => server.clock.set(new Date(Date.parse('2026-12-01T09:00:00Z') + day++ * 86_400_000).toISOString());
const has = (text: string, shown: string, what: string) =>
  assert.ok(text.includes(escapeHtml(shown)), `${what}: "${shown}" is on the page`);
function rowWith(text: string, marker: string): string {
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `no row with ${marker}`);
  return text.slice(text.lastIndexOf('<tr', at), text.indexOf('</tr>', at));
}
async function page(path: string, status = 200) {
  const res = await server.get(path);
  assert.equal(res.status, status, `${path}: ${res.text.slice(0, 300)}`);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  assert.ok(!/<script/i.test(res.text) && !/\sstyle=/i.test(res.text), 'no script, no inline style');
  return res.text;
}
/** Every table is a phone-fitting stack table, every data cell labelled by its column header. */
function tablesFitPhones(text: string, where: string) {
  for (const table of text.match(/<table[\s\S]*?<\/table>/g) ?? []) {
    assert.match(table, /^<table class="stack /, `${where}: a stack table`);
    const heads = [...table.matchAll(/<th scope="col">([\s\S]*?)<\/th>/g)].map((m) => m[1]!);
    for (const cell of table.match(/<td[^>]*>/g) ?? []) {
      const label = /data-label="([^"]*)"/.exec(cell)?.[1];
      assert.ok(label && heads.slice(1).includes(label), `${where}: a cell labelled by its column (${cell})`);
    }
  }
}
const calls = (text: string) => (text.match(/<li><a href="\/impact\/v1[^"]*"><code>GET /g) ?? []).length;

describe('lists', () => {
  test('materials: every material with the per-kg figures /impact/v1/materials serves', async () => {
    newDay();
    const text = await page('/explore/impact/materials');
    const api = (await server.api('/materials')).json;
    for (const m of api.data.materials) {
      const row = rowWith(text, `href="/explore/impact/materials/${m.slug}"`);
      has(row, m.name, m.slug);
      has(row, api.data.results.figures[m.slug].deaths_per_kg.display, `${m.slug} deaths per kg`);
      has(row, api.data.results.figures[m.slug].injuries_per_kg.display, `${m.slug} injuries per kg`);
    }
    assert.equal(calls(text), 1);
    tablesFitPhones(text, 'materials');
  });

  test('conflicts and countries: every entry with its figure; countries under their ISO names', async () => {
    newDay();
    for (const [list, key, path] of [
      ['conflicts', 'slug', 'conflicts'],
      ['countries', 'iso3', 'countries'],
    ] as const) {
      const text = await page(`/explore/impact/${path}`);
      const api = (await server.api(`/${list}`)).json;
      for (const x of api.data[list]) {
        const row = rowWith(text, `href="/explore/impact/${path}/${x[key]}"`);
        has(row, x.name, x[key]);
        const f = api.data.results.figures[x[key]];
        if (f) has(row, f.display, `${x[key]} per year`);
      }
      tablesFitPhones(text, list);
    }
    const countries = await page('/explore/impact/countries');
    has(countries, 'Congo, Democratic Republic of the', 'COD');
  });

  test('a withheld scenario: the lists say withheld, with the API reason, and show no figure', async () => {
    newDay();
    for (const path of ['materials', 'conflicts', 'countries']) {
      const text = await page(`/explore/impact/${path}?scenario=S-RES`);
      assert.match(text, /Figures withheld\.<\/strong> Scenario S-RES has no validated published run/);
      assert.ok((text.match(/class="withheld-cell">withheld</g) ?? []).length > 3, path);
      assert.ok(
        !/\d\.\de-\d/.test(text.slice(text.indexOf('<table'), text.indexOf('</table>'))),
        `${path}: no figure in the table`,
      );
    }
  });
});

describe('pages', () => {
  test('a material: facts, production, and its reach per kg, as /material/{slug} serves them', async () => {
    newDay();
    const text = await page('/explore/impact/materials/cobalt?scenario=S-ARMS');
    const api = (await server.api('/material/cobalt?scenario=S-ARMS')).json;
    has(text, api.data.results.per_kg.deaths.display, 'deaths per kg');
    for (const c of api.data.records.production.countries)
      has(rowWith(text, `href="/explore/impact/countries/${c.iso3}?scenario=S-ARMS"`), c.name, c.iso3);
    const products = api.data.results.reach.filter((r: Json) => r.metric === 'deaths' && r.product);
    assert.ok(products.length > 3);
    let last = -1;
    for (const r of products) {
      const at = text.indexOf(`href="/explore/impact/products/${r.product.slug}?scenario=S-ARMS"`);
      assert.ok(at > last, `${r.product.slug}: in the API's order (per kg)`);
      last = at;
      const row = rowWith(text, `href="/explore/impact/products/${r.product.slug}?scenario=S-ARMS"`);
      has(row, r.figure.display, `${r.product.slug} per kg`);
      has(row, r.per_unit.display, `${r.product.slug} per unit`);
    }
    has(text, api.citation.text, 'citation');
    // What may be reused under which terms, as the API composed it from the sources used.
    assert.equal(api.licence.open, false);
    for (const t of api.licence.terms.filter((x: Json) => !x.open)) has(text, t.reuse, `terms of ${t.source}`);
    assert.equal(calls(text), 1);
    tablesFitPhones(text, 'material');
  });

  test('a conflict and a country: ledger, shares, harm counted and reach as the API serves them', async () => {
    newDay();
    const text = await page('/explore/impact/conflicts/drc-east');
    const api = (await server.api('/conflict/drc-east')).json;
    has(text, api.data.name, 'name');
    has(text, api.data.records.ledger.deaths_best.toLocaleString('en-GB'), 'deaths counted');
    for (const p of api.data.attribution.periods) has(text, p.rationale, p.label);
    has(
      text,
      api.data.results.reach.find((r: Json) => r.rank === 0 && r.metric === 'deaths').figure.display,
      'total per year',
    );
    tablesFitPhones(text, 'conflict');

    const cod = await page('/explore/impact/countries/cod');
    const country = (await server.api('/country/COD')).json;
    assert.match(cod, /<h1>Congo, Democratic Republic of the<\/h1>/);
    for (const ch of country.data.records.harm_counted.channels) {
      has(
        rowWith(cod, `<th scope="row"><strong>${ch.channel}</strong></th>`),
        ch.deaths.toLocaleString('en-GB'),
        ch.channel,
      );
      // Each activity the source counts under, with its source linked to the data-sources page.
      for (const a of ch.activities) {
        const row = rowWith(cod, `<th scope="row">${ch.channel}: ${escapeHtml(a.label)}</th>`);
        has(row, a.deaths === null ? 'unknown' : a.deaths.toLocaleString('en-GB'), `${ch.channel} ${a.activity}`);
        assert.ok(row.includes(`href="/explore/impact/sources#src-${a.source}"`), `${ch.channel} ${a.activity} source`);
      }
    }
    const c1 = country.data.records.harm_counted.channels.find((ch: Json) => ch.channel === 'C1');
    assert.deepEqual(
      c1.activities.map((a: Json) => a.activity),
      ['battle', 'other'],
      'battle deaths and other organised violence',
    );
    has(cod, country.data.income_provenance.release, 'the World Bank release of the income group');
    tablesFitPhones(cod, 'country');
  });

  test('provenance on the pages: each figure with the shares of what it rests on, as the API gives them', async () => {
    newDay();
    const restsOn = (p: Json) =>
      (['published', 'derived', 'assumption', 'illustrative'] as const)
        .filter((b) => p[b] > 0)
        .map((b) => {
          const x = p[b];
          const share = x >= 0.995 ? '100' : x < 0.005 ? '&lt;1' : formatSig(x * 100, 2);
          return `${share}% ${b === 'assumption' ? 'assumed' : b}`;
        })
        .join(' · ');
    // A material: its per-kg figures, price and production, each with where it comes from.
    const text = await page('/explore/impact/materials/cobalt');
    const api = (await server.api('/material/cobalt')).json;
    const deaths = api.data.results.per_kg.deaths;
    assert.ok(text.includes(`rests on ${restsOn(deaths.provenance)}`), 'deaths per kg: its provenance shares');
    has(text, deaths.quotable, 'deaths per kg, quotable');
    assert.ok(text.includes('href="/explore/impact/sources#src-usgs-mcs"'), 'production source linked');
    has(text, api.data.records.production.provenance.release, 'the USGS release');
    // A conflict: the ledger says where its deaths are counted, year by year.
    const conflict = await page('/explore/impact/conflicts/drc-east');
    const k = (await server.api('/conflict/drc-east')).json.data;
    assert.equal(k.records.ledger.source, 'ucdp-brd');
    assert.match(conflict, /UCDP battle-related deaths, its dyads summed/);
    const y2022 = k.records.ledger.by_year.find((y: Json) => y.year === 2022);
    has(rowWith(conflict, '<th scope="row">2022</th>'), y2022.deaths_best.toLocaleString('en-GB'), 'deaths in 2022');
    // A product: the headline figures with their shares, the bill of materials with its citations.
    const product = await page('/explore/impact/products/smartphone');
    const p = (await server.api('/product/smartphone')).json;
    for (const f of Object.values<Json>(p.metrics).filter((x) => x && x.provenance))
      assert.ok(product.includes(`rests on ${restsOn(f.provenance)}`), `${f.unit}: its shares`);
    const cobalt = p.data.bill_of_materials.find((l: Json) => l.component.key === 'cobalt');
    for (const c of cobalt.citations) assert.ok(product.includes(`href="${escapeHtml(c.url)}"`), `citation ${c.row}`);
    assert.match(product, /Bill of materials \(10 lines, 6 resting on cited figures\)/);
  });

  test('the data-sources page lists every dataset with its release, licence and what it feeds', async () => {
    newDay();
    const text = await page('/explore/impact/sources');
    const api = (await server.api('/sources')).json;
    assert.equal(
      api.data.sources.length,
      25,
      'issue 33: FAOSTAT, FAO factors, ICO, standard compositions, BatPaC, bom-additions, the catalogue',
    );
    for (const s of api.data.sources) {
      const row = rowWith(text, `href="#src-${s.code}"`);
      has(row, s.name, s.code);
      const latest = s.releases[s.releases.length - 1];
      if (latest) has(row, latest.release, `${s.code} release`);
      if (latest?.published_on) has(row, latest.published_on, `${s.code} published`);
      for (const f of s.feeds) has(text, f, `${s.code} feeds`);
      assert.ok(text.includes(`id="src-${s.code}"`), `${s.code}: an anchor the other pages link to`);
      if (s.credit) has(text, s.credit, `${s.code} credit`);
    }
    // ILOSTAT's extract predates the ILO's CC BY 4.0 policy: said, and not open for reuse.
    const ilo = text.slice(text.indexOf('id="src-ilostat"'));
    assert.match(ilo.slice(0, ilo.indexOf('</section>')), /before the ILO&#39;s CC BY 4.0 policy of 3 May 2023/);
    assert.match(ilo.slice(0, ilo.indexOf('</section>')), /no: its own terms apply/);
    // FAOSTAT's copy was made under FAO's former non-commercial terms (issue 33): said, and not open.
    const fao = text.slice(text.indexOf('id="src-faostat"'));
    assert.match(fao.slice(0, fao.indexOf('</section>')), /CC BY-NC-SA 3\.0 IGO/);
    assert.match(fao.slice(0, fao.indexOf('</section>')), /no: its own terms apply/);
    assert.equal(calls(text), 1);
    tablesFitPhones(text, 'sources');
  });

  test("bad input and unknown subjects: the API's 400 and 404 on a page, never a 500", async () => {
    newDay();
    const cases: Array<[string, number, RegExp]> = [
      ['/explore/impact/materials?scenario=S-NOPE', 400, /Invalid query parameter &#39;scenario&#39;: must be one of/],
      ['/explore/impact/materials/Not_A_Slug', 400, /Invalid path parameter &#39;slug&#39;/],
      ['/explore/impact/materials/unobtainium', 404, /No material &#39;unobtainium&#39;/],
      ['/explore/impact/conflicts/nowhere', 404, /No conflict &#39;nowhere&#39;/],
      ['/explore/impact/countries/ZZZ', 404, /No country &#39;ZZZ&#39;/],
      ['/explore/impact/countries/C0D', 400, /ISO 3166-1 alpha-3/],
    ];
    for (const [path, status, detail] of cases) assert.match(await page(path, status), detail, path);
  });
});

test('compare: the share of tied draws is shown beside A > B; a product against itself ties in every draw', async () => {
  newDay();
  const res = await server.get('/explore/impact/compare?a=bicycle&b=bicycle');
  assert.equal(res.status, 200, res.text.slice(0, 300));
  assert.match(res.text, /Share of draws where A = B \(a tie\)/);
  const row = rowWith(res.text, '<th scope="row">per unit');
  assert.match(row, /<td[^>]*>0%<\/td><td[^>]*>100%<\/td>/, row);
  const api = (await server.api('/compare?a=smartphone&b=laptop')).json.data.results.pair.by.per_kg;
  const other = await server.get('/explore/impact/compare?a=smartphone&b=laptop');
  has(
    rowWith(other.text, '<th scope="row">per kg'),
    `${formatSig(api.p_a_equal * 100, 3)}%`,
    "the API's share of ties",
  );
});
