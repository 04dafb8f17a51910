/**
 * Issue 14 in a real browser (JavaScript off, as the pages need none): a researcher browses materials,
 * conflicts and countries from the catalogue, at desktop and phone widths. On a phone no page is wider
 * than the screen: every table fits (each row a card, each value labelled by its column). Screenshots of
 * every page at both widths go to test-results/screenshots/explore-impact-register-*.png.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserMissing, launchBrowser, DESKTOP, PHONE, screenshot } from '../../helpers/browser.ts';
import { startImpactServer, type ImpactServer } from '../impact/harness.ts';

const skip = browserMissing();
let server: ImpactServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startImpactServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
});

let day = 0;
const newDay = () => server.clock.set(new Date(Date.parse('2026-12-01T09:00:00Z') + day++ * 86_400_000).toISOString());

async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

/** The browser's getComputedStyle, inside page.evaluate (the project's types have no DOM library). */
type Styles = { getComputedStyle(element: unknown, pseudo?: string): { display: string; content: string } };

/** Nothing on the page is wider than the viewport: no sideways scrolling, every table inside the screen. */
async function fitsTheScreen(page: Page, width: number, where: string) {
  const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide on a ${width} px screen`);
  const tables = await page.locator('table').evaluateAll((ts) =>
    ts.map((t) => ({
      right: Math.ceil(t.getBoundingClientRect().right),
      caption: t.querySelector('caption')?.textContent ?? '',
    })),
  );
  for (const t of tables)
    assert.ok(t.right <= width, `${where}: the table "${t.caption}" ends at ${t.right} px, the screen at ${width}`);
}

const PAGES: Array<[string, string, RegExp]> = [
  ['materials', '/explore/impact/materials', /^Materials$/],
  ['material', '/explore/impact/materials/cobalt', /^Cobalt$/],
  ['conflicts', '/explore/impact/conflicts', /^Conflicts$/],
  ['conflict', '/explore/impact/conflicts/drc-east', /^DR Congo \(Zaire\): Government$/],
  ['countries', '/explore/impact/countries', /^Countries$/],
  ['country', '/explore/impact/countries/COD', /^Congo, Democratic Republic of the$/],
  ['products', '/explore/impact', /Impact/],
  // the pages that were there before: their tables fit a phone too
  ['product', '/explore/impact/products/bicycle', /^Bicycle$/],
  ['compare', '/explore/impact/compare?a=smartphone&b=laptop', /Smartphone/],
  ['spend', '/explore/impact/spend', /Spending/],
  ['sources', '/explore/impact/sources', /^Data sources$/],
];

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(
    `every register page at ${label} width${label === 'phone' ? ', no wider than the screen' : ''}`,
    { skip: skip ?? false },
    async () => {
      newDay();
      const { context, page } = await open(viewport);
      for (const [name, path, title] of PAGES) {
        const res = await page.goto(`${server.url}${path}`);
        assert.equal(res?.status(), 200, path);
        assert.match((await page.locator('h1').textContent()) ?? '', title, path);
        const cell = page.locator('table.stack td[data-label]').first();
        if (label === 'phone') {
          await fitsTheScreen(page, viewport.width, path);
          // A card per row: a cell shows its column's name before its value.
          const label = await cell.getAttribute('data-label');
          const before = await cell.evaluate(
            (td) => (globalThis as unknown as Styles).getComputedStyle(td, '::before').content,
          );
          assert.equal(before, `"${label}: "`, `${path}: cells are labelled on a phone`);
          assert.equal(
            await cell.evaluate((td) => (globalThis as unknown as Styles).getComputedStyle(td).display),
            'block',
            `${path}: a card, not a column`,
          );
        } else {
          assert.equal(
            await cell.evaluate((td) => (globalThis as unknown as Styles).getComputedStyle(td).display),
            'table-cell',
            `${path}: an ordinary table on a wide screen`,
          );
        }
        await screenshot(page, `explore-impact-register-${name}-${label}`);
      }
      await context.close();
    },
  );
}

test(
  'from the catalogue to a material, a country it is produced in, and a conflict there, by links',
  { skip: skip ?? false },
  async () => {
    newDay();
    const { context, page } = await open(PHONE);
    await page.goto(`${server.url}/explore/impact`);
    await page.locator('p.browse').getByRole('link', { name: 'materials' }).click();
    await page.waitForURL('**/explore/impact/materials');
    await page.getByRole('link', { name: 'Cobalt', exact: true }).click();
    await page.waitForURL('**/explore/impact/materials/cobalt');
    assert.ok((await page.locator('table.reach tbody tr').count()) > 3, 'the products cobalt reaches');
    assert.match(
      (await page.locator('#reach-h + p + p.muted, section p.muted').first().textContent()) ?? '',
      /per kg of product/,
    );
    await page.locator('table.production').getByRole('link', { name: 'Congo, Democratic Republic of the' }).click();
    await page.waitForURL('**/explore/impact/countries/COD');
    assert.match((await page.locator('table.harm').textContent()) ?? '', /C1/);
    await page.locator('p.browse').getByRole('link', { name: 'conflicts' }).click();
    await page.waitForURL('**/explore/impact/conflicts');
    await page.getByRole('link', { name: 'DR Congo (Zaire): Government' }).click();
    await page.waitForURL('**/explore/impact/conflicts/drc-east');
    await page.locator('select[name=scenario]').selectOption('S-ARMS');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/conflicts\/drc-east\?scenario=S-ARMS/);
    assert.match((await page.locator('p.provenance').first().textContent()) ?? '', /Scenario S-ARMS, run 4/);
    await screenshot(page, 'explore-impact-register-journey-phone');
    await context.close();
  },
);

test(
  'issue 24: figures show what they rest on; a value links to its source on the data-sources page',
  { skip: skip ?? false },
  async () => {
    newDay();
    const { context, page } = await open(DESKTOP);
    await page.goto(`${server.url}/explore/impact/products/smartphone`);
    const shares = page.locator('table.headline-figures .rests-on').first();
    // Each path rests on its weakest input: a product's per-unit figure on assumed attribution shares at best.
    assert.match(
      (await shares.textContent()) ?? '',
      /rests on (<1|\d+)% (published|derived|assumed|illustrative)( · |$)/,
    );
    assert.ok((await shares.locator('svg.rests-bar rect').count()) >= 2, 'a bar of its shares');
    assert.match(
      (await page.locator('table.headline-figures td.quotable').first().textContent()) ?? '',
      /deaths per (million|billion|trillion|thousand) phones/,
    );
    // The cobalt line rests on a cited figure; its source opens on the data-sources page.
    const line = page.locator('details.bom tr', { hasText: 'Cobalt' }).first();
    assert.match((await line.textContent()) ?? '', /Oeko-Institut/);
    await line.getByRole('link', { name: 'bom-literature' }).click();
    await page.waitForURL('**/explore/impact/sources#src-bom-literature');
    assert.equal(await page.locator('h1').textContent(), 'Data sources');
    const section = page.locator('#src-bom-literature');
    assert.ok(await section.isVisible());
    assert.match((await section.textContent()) ?? '', /What it feeds/);
    await screenshot(page, 'explore-impact-sources-desktop');
    // From a material's production to USGS.
    await page.goto(`${server.url}/explore/impact/materials/cobalt`);
    await page.locator('.source-of').getByRole('link', { name: 'usgs-mcs' }).first().click();
    await page.waitForURL('**/explore/impact/sources#src-usgs-mcs');
    assert.match((await page.locator('#src-usgs-mcs').textContent()) ?? '', /Mineral Commodity Summaries/);
    await context.close();
  },
);
