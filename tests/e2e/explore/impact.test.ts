/**
 * The impact explorer pages over HTTP, against the real server: every figure a page shows is the one
 * the API serves for the same request (the test asks the API itself, with a key so that its own calls do
 * not spend the address's allowance, and finds each display on the page); the explain tables' sum rows
 * equal the sum of the API's parts and stand beside its headline; withheld figures are shown as withheld
 * with the API's reason; bad input gives the API's 400 detail on a 400 page and never a 500; when the
 * address's daily allowance is used, the page says so and when it renews (429, Retry-After).
 * Scenario S-RES is unpublished before the first request, so one scenario is withheld next to the others.
 * Page calls count on the test's address (100 a day): each test starts on a new day of the test clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { escapeHtml } from '../../../lib/html.ts';
import { formatSig } from '../../../lib/impact/figure.ts';
import { close, startImpactServer, type ImpactServer } from '../impact/harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
  server.app.db.prepare("DELETE FROM impact_current_runs WHERE scenario = 'S-RES'").run();
});
after(() => server.cleanup());

/** Each test on a day of its own, so that the address's 100 daily requests are not shared between tests. */
let day = 0;
const newDay = () => server.clock.set(new Date(Date.parse('2026-12-01T09:00:00Z') + day++ * 86_400_000).toISOString());

const page = (path: string) => server.get(path);
const has = (text: string, shown: string, what: string) =>
  assert.ok(text.includes(escapeHtml(shown)), `${what}: "${shown}" is on the page`);
/** The table row (<tr>…</tr>) of the page that contains `marker`. */
function rowWith(text: string, marker: string): string {
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `no row with ${marker}`);
  return text.slice(text.lastIndexOf('<tr', at), text.indexOf('</tr>', at));
}
function assertPage(res: { status: number; headers: Headers; text: string }, status: number) {
  assert.equal(res.status, status, res.text.slice(0, 400));
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  assert.match(res.headers.get('content-security-policy') ?? '', /script-src/, "the console's security headers");
  assert.ok(!/<script/i.test(res.text), 'no script: the page works without JavaScript');
  assert.ok(!/\sstyle=/i.test(res.text), 'no inline style');
}

describe('the catalogue', () => {
  test('lists every product with the per-unit and per-kg figures the API serves', async () => {
    newDay();
    const res = await page('/explore/impact');
    assertPage(res, 200);
    const api = (await server.api('/products')).json;
    assert.equal(api.data.products.length, 48);
    for (const p of api.data.products) {
      const row = rowWith(res.text, `href="/explore/impact/products/${p.slug}"`);
      const f = api.data.results.figures[p.slug];
      has(row, f.per_unit.display, `${p.slug} per unit`);
      has(row, f.per_kg.display, `${p.slug} per kg`);
    }
    for (const c of api.caveats) has(res.text, c.text, 'caveat');
    assert.match(res.text, /statistically attributed to the supply chains/);
    assert.match(
      res.text,
      /This page made 1 request to the impact API on your behalf\. 99 of your 100 requests are left today/,
    );
  });

  test("the filters are the API's: same products in the same order; the name filter narrows them", async () => {
    newDay();
    const res = await page('/explore/impact?tier=finished&sort=toll&scenario=S-EVID');
    assertPage(res, 200);
    const api = (await server.api('/products?tier=finished&sort=toll&scenario=S-EVID')).json;
    const order = [...res.text.matchAll(/<th scope="row"><a href="\/explore\/impact\/products\/([a-z0-9-]+)"/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(
      order,
      api.data.products.map((p: Json) => p.slug),
    );
    has(res.text, api.citation.text, 'the citation of the same request');
    const named = await page('/explore/impact?q=GOLD');
    const slugs = [...named.text.matchAll(/<th scope="row"><a href="\/explore\/impact\/products\/([a-z0-9-]+)"/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(slugs.sort(), ['gold-alloy-18k', 'gold-necklace', 'gold-ring']);
  });
});

describe('a product page', () => {
  test("shows the API's figure under each scenario, the withheld one as withheld", async () => {
    newDay();
    const res = await page('/explore/impact/products/bicycle');
    assertPage(res, 200);
    const api = (await server.api('/product/bicycle')).json;
    for (const s of api.data.results.scenarios) {
      const row = rowWith(
        res.text.slice(res.text.indexOf('<table class="stack chart-table">')),
        `<th scope="row">${s.code} `,
      );
      if (s.code === 'S-RES') {
        assert.equal(s.deaths_per_unit, null);
        assert.match(row, /<strong>withheld<\/strong>: scenario S-RES has no published run/);
      } else {
        has(row, s.deaths_per_unit.display, s.code);
        assert.ok(
          row.includes(`>${formatSig(s.deaths_per_unit.central)}<`),
          `${s.code}: central ${s.deaths_per_unit.central}`,
        );
        assert.ok(row.includes(`/impact/v1/runs/${s.run}`), `${s.code}: run ${s.run}`);
      }
    }
    assert.match(res.text, /<desc id="chart-scenarios-desc">[^<]*S-RES Resource-financed conflict only: withheld/);
    for (const [k, f] of Object.entries(api.metrics as Record<string, Json>))
      if (f?.display) has(res.text, f.display, `headline ${k}`);
    has(res.text, api.citation.text, 'citation');
    for (const s of api.sources) has(res.text, s.credit, `credit of ${s.code}`);
    for (const c of api.caveats) has(res.text, c.text, `caveat ${c.code}`);
    for (const link of [
      '/impact/v1/product/bicycle',
      '/impact/v1/product/bicycle/contributions',
      '/impact/v1/product/bicycle/explain',
    ])
      assert.ok(res.text.includes(`href="${link}"`), link);
    assert.match(
      res.text,
      /This page made 3 requests to the impact API on your behalf\. 97 of your 100 requests are left today/,
    );
  });

  test("every contribution and every explain part is the API's, and each sum row equals the sum of the API's parts beside its headline", async () => {
    newDay();
    for (const [slug, query] of [
      ['bicycle', ''],
      ['smartphone', '?metric=injuries&scenario=S-EVID'],
      ['gold-ring', ''],
    ] as const) {
      const res = await page(`/explore/impact/products/${slug}${query}`);
      assertPage(res, 200);
      const contributions = (await server.api(`/product/${slug}/contributions${query}`)).json;
      for (const [type, parts] of Object.entries(contributions.data.results.breakdowns as Record<string, Json[]>)) {
        const section = res.text.slice(res.text.indexOf(`id="contrib-${type}-h"`));
        for (const c of parts)
          has(
            rowWith(section, `<th scope="row">${escapeHtml(c.label)}</th>`),
            c.figure.display,
            `${slug} ${type} ${c.key}`,
          );
      }
      const explain = (await server.api(`/product/${slug}/explain${query}`)).json;
      let sums = 0;
      for (const [route, content] of Object.entries(explain.data.results.routes as Record<string, Json>)) {
        if (!content) continue;
        for (const [stage, parts] of Object.entries(content.steps as Record<string, Json[]>)) {
          const table = res.text.slice(
            res.text.indexOf(`id="explain-${route}-${stage}"`),
            res.text.indexOf('</table>', res.text.indexOf(`id="explain-${route}-${stage}"`)),
          );
          for (const c of parts)
            has(
              rowWith(table, `<th scope="row">${escapeHtml(c.label)}</th>`),
              c.figure.display,
              `${slug} ${route}/${stage} ${c.key}`,
            );
          has(rowWith(table, 'class="headline-row"'), content.headline.display, `${slug} ${route}/${stage} headline`);
          const summable = content.headline.central !== null && parts.every((c) => c.figure.central !== null);
          const sum = /data-sum="([^"]+)"/.exec(table);
          assert.equal(
            Boolean(sum),
            summable,
            `${slug} ${route}/${stage}: a sum row exactly when every central value is served`,
          );
          if (sum) {
            sums++;
            const expected = parts.reduce((a, c) => a + c.figure.central, 0);
            assert.ok(close(Number(sum[1]), expected, 1e-12), `${slug} ${route}/${stage}: ${sum[1]} = Σ ${expected}`);
            assert.equal(Number(/data-headline="([^"]+)"/.exec(table)![1]), content.headline.central);
            assert.ok(
              close(Number(sum[1]), content.headline.central, 1e-9),
              `${slug} ${route}/${stage}: the sum is the headline`,
            );
            assert.match(table, /✓ equal to the sum/);
          } else assert.match(table, /No sum to show:<\/strong>[^<]*INDICATIVE/);
        }
      }
      assert.ok(
        sums > 0,
        `${slug}: at least one stage visibly sums (the input-output route always has central values)`,
      );
    }
  });

  test("a scenario without a published run: the page is withheld with the API's reason, no figure shown", async () => {
    newDay();
    const res = await page('/explore/impact/products/bicycle?scenario=S-RES');
    assertPage(res, 200);
    const api = (await server.api('/product/bicycle?scenario=S-RES')).json;
    assert.equal(api.status, 'withheld');
    assert.ok(res.text.includes(`<strong>Figures withheld.</strong> ${escapeHtml(api.withheld.reason)}`));
    assert.ok(!res.text.includes('<svg'), 'no chart');
    assert.ok(!/\d\.\de-\d+ \(/.test(res.text), 'no figure anywhere');
    assert.match(res.text, /figures withheld: no published run/, 'the citation says so');
    assert.match(res.text, /Bill of materials/, 'register facts are still shown');
  });
});

describe('compare and spend', () => {
  test("compare shows the API's ratios, verdicts and both products' figures", async () => {
    newDay();
    const res = await page('/explore/impact/compare?a=smartphone&b=laptop');
    assertPage(res, 200);
    const api = (await server.api('/compare?a=smartphone&b=laptop')).json;
    const r = api.data.results;
    const verdicts: Record<string, string> = {
      a_larger: 'Smartphone is larger',
      b_larger: 'Laptop computer is larger',
      not_distinguishable: 'cannot be told apart',
    };
    const table = res.text.slice(res.text.indexOf('<table class="stack chart-table">'));
    for (const [k, label] of [
      ['per_unit', 'per unit'],
      ['per_kg', 'per kg'],
      ['per_1000_eur', 'per 1,000 EUR'],
    ] as const) {
      const row = rowWith(table, `<th scope="row">${label}</th>`);
      const x = r.pair.by[k];
      assert.ok(row.includes(`>${formatSig(x.low)}<`) && row.includes(`>${formatSig(x.high)}<`), `${k} ratio interval`);
      assert.ok(row.includes(verdicts[x.verdict]!), `${k} verdict ${x.verdict}`);
      has(res.text, r.a[k].display, `A ${k}`);
      has(res.text, r.b[k].display, `B ${k}`);
    }
    assert.match(res.text, /same 500 draws/);
    const form = await page('/explore/impact/compare');
    assertPage(form, 200);
    assert.match(form.text, /<select name="a">/);
  });

  test("spend shows every category's figures as the API serves them for the amount", async () => {
    newDay();
    const res = await page('/explore/impact/spend?amount=250&chart=injuries');
    assertPage(res, 200);
    const api = (await server.api('/spend?amount=250')).json;
    for (const row of api.data.results.rows) {
      const name = row.reference
        ? 'All spending'
        : `${row.code} ${api.data.categories.find((c: Json) => c.code === row.code).name}`;
      const tr = rowWith(res.text.slice(res.text.indexOf('<table class="stack spend">')), escapeHtml(name));
      has(tr, row.deaths.display, `${row.code} deaths`);
      has(tr, row.injuries.display, `${row.code} injuries`);
    }
    assert.match(res.text, /Injuries attributed to the supply chains of 250 EUR spent in each category/);
    has(res.text, api.citation.text, 'citation');
  });
});

describe('refusals', () => {
  test("bad input: the API's detail on a 4xx page; nothing is a 500", async () => {
    newDay();
    const cases: Array<[string, number, RegExp]> = [
      ['/explore/impact?tier=bad', 400, /Invalid query parameter &#39;tier&#39;/],
      ['/explore/impact?scenario=S-NOPE', 400, /scenario/],
      ['/explore/impact/spend?amount=-1', 400, /Invalid query parameter &#39;amount&#39;/],
      ['/explore/impact/spend?amount=abc', 400, /amount/],
      ['/explore/impact/spend?chart=pie', 400, /Invalid query parameter &#39;chart&#39;/],
      ['/explore/impact/spend?category=99', 404, /./],
      ['/explore/impact/products/no-such-product', 404, /No product &#39;no-such-product&#39;/],
      ['/explore/impact/products/Not_A_Slug', 400, /slug/],
      ['/explore/impact/products/bicycle?metric=joy', 400, /metric/],
      ['/explore/impact/compare?a=smartphone&b=no-such-product', 404, /no-such-product/],
      ['/explore/impact/products/' + 'a'.repeat(200), 400, /slug/],
      ['/explore/impact/products/%E2%98%83%00', 400, /slug/],
      ['/explore/impact/nope', 404, /no such page/],
    ];
    for (const [path, status, detail] of cases) {
      const res = await page(path);
      assertPage(res, status);
      assert.match(res.text, /role="alert"/, path);
      assert.match(res.text, detail, path);
    }
  });

  test('when the address has used its 100 requests, the page says so and when they renew', async () => {
    newDay();
    server.clock.set(new Date(server.clock.ms).toISOString().slice(0, 10) + 'T20:30:00Z');
    let remaining = Number((await server.anon('/scenarios')).headers.get('x-ratelimit-remaining'));
    while (remaining > 0) remaining = Number((await server.anon('/scenarios')).headers.get('x-ratelimit-remaining'));
    for (const path of [
      '/explore/impact',
      '/explore/impact/products/bicycle',
      '/explore/impact/compare?a=smartphone&b=laptop',
      '/explore/impact/spend',
    ]) {
      const res = await page(path);
      assertPage(res, 429);
      assert.equal(res.headers.get('retry-after'), String(3.5 * 3600), `${path}: seconds until 00:00 UTC`);
      assert.match(res.text, /Today&#39;s allowance is used up/);
      assert.match(res.text, /renews at <strong>00:00 UTC<\/strong>, in <strong>3 h 30 min<\/strong>/);
      assert.match(res.text, /100 requests a day/);
    }
    server.clock.advance(3.5 * 3600 * 1000);
    assertPage(await page('/explore/impact'), 200);
  });
});

describe('everything withheld (the register alone)', () => {
  let empty: ImpactServer;
  before(async () => {
    empty = await startImpactServer({ published: false, inProcess: true });
  });
  after(() => empty.cleanup());

  test("every page shows the withheld state with the API's reason, never a figure", async () => {
    for (const path of [
      '/explore/impact',
      '/explore/impact/products/smartphone',
      '/explore/impact/compare?a=smartphone&b=laptop',
      '/explore/impact/spend',
    ]) {
      const res = await empty.get(path);
      assertPage(res, 200);
      assert.match(
        res.text,
        /<strong>Figures withheld\.<\/strong> Scenario S-MAX has no validated published run/,
        path,
      );
      assert.ok(!res.text.includes('<svg'), `${path}: no chart`);
      assert.ok(!/\d\.\de-\d+ \(|between \d/.test(res.text), `${path}: no figure`);
    }
    const list = await empty.get('/explore/impact');
    assert.equal(
      (list.text.match(/class="withheld-cell">withheld</g) ?? []).length,
      96,
      "each product's two figures say withheld",
    );
  });
});
