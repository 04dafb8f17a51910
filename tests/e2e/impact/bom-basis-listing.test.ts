/**
 * What a product's bill of materials rests on (issue 33), over HTTP on the published register: every
 * item of /products and every /product/{slug} carries `bom_basis`, and its counts are the product's own
 * lines counted here by the basis and source of each line's provenance (an independent computation
 * over the served bill of materials); the list and the page agree. The explorer shows the share and
 * the sources on the catalogue and the product page. And the licence each response composes names the
 * FAO sources exactly when its figures use an agricultural material: FAOSTAT (non-commercial copy) for
 * chocolate, FAO's conversion factors too for a T-shirt's cotton lint, neither for a gold ring.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { escapeHtml } from '../../../lib/html.ts';
import { startImpactServer, type ImpactServer } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
});
after(() => server.cleanup());

test('every product says what its bill of materials rests on, as its own lines do', async () => {
  const list = (await server.api('/products')).json.data.products as Json[];
  assert.equal(list.length, 48);
  let cited = 0;
  for (const item of list) {
    const page = (await server.api(`/product/${item.slug}`)).json.data;
    assert.deepEqual(page.bom_basis, item.bom_basis, `${item.slug}: list and page agree`);
    const lines: Record<string, number> = { published: 0, derived: 0, assumption: 0, illustrative: 0 };
    const sources = new Map<string, number>();
    for (const l of page.bill_of_materials) {
      lines[l.provenance?.basis ?? 'illustrative']!++;
      if (l.provenance) sources.set(l.provenance.source, (sources.get(l.provenance.source) ?? 0) + 1);
    }
    const b = item.bom_basis;
    assert.deepEqual(b.lines, lines, item.slug);
    assert.equal(item.bom_lines, page.bill_of_materials.length);
    const total = page.bill_of_materials.length;
    assert.equal(b.published_or_derived, total ? (lines.published! + lines.derived!) / total : null, item.slug);
    assert.deepEqual(
      Object.fromEntries(b.sources.map((s: Json) => [s.code, s.lines])),
      Object.fromEntries(sources),
      `${item.slug}: the sources its lines name`,
    );
    assert.ok(
      b.sources.every((s: Json, i: number, a: Json[]) => i === 0 || a[i - 1].lines >= s.lines),
      'most lines first',
    );
    assert.match(b.summary, new RegExp(`^${total} bill-of-materials line`));
    if (b.published_or_derived > 0) cited++;
  }
  // The tyre's, the battery cell's, the smartphone's lines rest on cited figures (bom-literature).
  const byslug = new Map(list.map((p) => [p.slug, p.bom_basis]));
  for (const slug of ['car-tyre', 'battery-cell-nmc', 'smartphone'])
    assert.ok(
      byslug.get(slug).sources.some((s: Json) => s.code === 'bom-literature'),
      slug,
    );
  assert.ok(cited >= 10, `${cited} products with lines on published data`);
});

test('the explorer shows the share and the sources of each bill of materials', async () => {
  const api = (await server.api('/products')).json.data.products as Json[];
  const catalogue = (await server.get('/explore/impact')).text;
  for (const p of api) {
    const at = catalogue.indexOf(`href="/explore/impact/products/${p.slug}"`);
    const row = catalogue.slice(catalogue.lastIndexOf('<tr', at), catalogue.indexOf('</tr>', at));
    const b = p.bom_basis;
    if (b.published_or_derived !== null)
      assert.ok(row.includes(`${Math.round(b.published_or_derived * 100)} %`), p.slug);
  }
  const tyre = api.find((p) => p.slug === 'car-tyre');
  const page = (await server.get('/explore/impact/products/car-tyre')).text;
  assert.ok(page.includes(escapeHtml(tyre.bom_basis.summary)), 'the product page gives the summary');
  assert.ok(page.includes(escapeHtml(tyre.bom_basis.sources.find((s: Json) => s.code === 'bom-literature').name)));
});

test('a response names the FAO sources exactly when its figures use an agricultural material', async () => {
  const terms = async (slug: string) => {
    const body = (await server.api(`/product/${slug}`)).json;
    return {
      sources: new Set(body.sources.map((s: Json) => s.code)),
      restricted: new Set(body.licence.restrictions.map((r: Json) => r.source)),
      open: body.licence.open,
    };
  };
  const chocolate = await terms('chocolate-bar');
  assert.ok(chocolate.sources.has('faostat') && chocolate.restricted.has('faostat'));
  assert.equal(chocolate.open, false);
  const shirt = await terms('t-shirt');
  for (const s of ['faostat', 'fao-tcf']) assert.ok(shirt.restricted.has(s), `t-shirt: ${s}`);
  const ring = await terms('gold-ring');
  assert.ok(!ring.sources.has('faostat') && !ring.sources.has('fao-tcf'), 'no crop in a gold ring');
  const sources = (await server.api('/sources')).json.data.sources as Json[];
  const fao = sources.find((s) => s.code === 'faostat');
  assert.match(fao.licence.name, /CC BY-NC-SA 3\.0 IGO/);
  assert.match(fao.licence.name, /CC BY 4\.0/);
  assert.match(sources.find((s) => s.code === 'fao-tcf').licence.name, /No licence stated/);
  assert.equal(sources.find((s) => s.code === 'batpac').licence.spdx, 'MIT');
});
