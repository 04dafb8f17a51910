/**
 * A person in a real browser, with JavaScript switched off (the pages need none): finds a product
 * through the filter form, reads its scenario chart (exposed as an image named by its title, described
 * by its figures), its contributions and the explain tables that sum to the headline, compares two
 * products and looks at spending by category; sees a withheld scenario shown as withheld. Screenshots
 * of every page go to test-results/screenshots/explore-impact-*.png, the product page at desktop and
 * phone widths. Scenario S-RES is unpublished before the first request, so a withheld row is on show.
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
  server.app.db.prepare("DELETE FROM impact_current_runs WHERE scenario = 'S-RES'").run();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
});

const shot = (page: Page, name: string) => screenshot(page, `explore-impact-${name}`);

async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

test('the catalogue, filtered through its form, leads to a product page', { skip: skip ?? false }, async () => {
  const { context, page } = await open(DESKTOP);
  await page.goto(`${server.url}/explore/impact`);
  assert.match((await page.textContent('main')) ?? '', /statistically attributed to the supply chains/);
  assert.match(
    (await page.textContent('.notice.warn')) ?? '',
    /illustrative/i,
    'the demo data caveat, as the API states it',
  );
  await shot(page, 'index');
  await page.getByLabel('Name contains').fill('bicy');
  await page.getByLabel('Tier').selectOption('finished');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/q=bicy/);
  const names = await page.locator('table.products tbody th').allTextContents();
  assert.ok(names.length >= 1 && names.length < 48, `a few products: ${names.join(', ')}`);
  for (const name of names) assert.match(name, /bicy/i);
  await page.getByRole('link', { name: 'Bicycle', exact: true }).click();
  await page.waitForURL('**/explore/impact/products/bicycle');
  assert.equal(await page.locator('h1').textContent(), 'Bicycle');
  await context.close();
});

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(
    `the product page at ${label} width: charts with text alternatives, sums beside the headline`,
    { skip: skip ?? false },
    async () => {
      const { context, page } = await open(viewport);
      await page.goto(`${server.url}/explore/impact/products/bicycle`);
      const chart = page.getByRole('img', {
        name: /Deaths per bicycle attributed to the supply chain of Bicycle, under each scenario/,
      });
      await chart.waitFor();
      // The description a screen reader reads: every scenario with the API's display, the unpublished one as withheld.
      const described = await page.locator('#chart-scenarios-desc').textContent();
      assert.match(described ?? '', /S-MAX Maximum supported attribution: \d/);
      assert.match(described ?? '', /S-RES [^;]*: withheld/);
      assert.equal(
        await page.locator('#chart-scenarios').getAttribute('aria-labelledby'),
        'chart-scenarios-title chart-scenarios-desc',
      );
      assert.ok(
        (await page.getByRole('img', { name: /By country of production/i }).count()) > 0,
        'the contributions chart is named too',
      );
      // The first explain stage is open and shows its sum next to the headline.
      const stage = page.locator('details.explain-stage[open] table.explain').first();
      assert.match((await stage.locator('tr.sum-row').textContent()) ?? '', /Sum of the \d+ parts/);
      assert.match((await stage.locator('tr.headline-row').textContent()) ?? '', /equal to the sum/);
      assert.match((await page.locator('blockquote.citation').textContent()) ?? '', /run 1, methodology v3/);
      await shot(page, `product-${label}`);
      await context.close();
    },
  );
}

test('an INDICATIVE product: intervals only, and no sum pretended', { skip: skip ?? false }, async () => {
  const { context, page } = await open(DESKTOP);
  // On the published register the tablet is INDICATIVE under every scenario (its figures span over ten-fold).
  await page.goto(`${server.url}/explore/impact/products/tablet`);
  await page
    .getByRole('img', { name: /Deaths per tablet attributed to the supply chain of Tablet computer/ })
    .waitFor();
  assert.equal(await page.locator('#chart-scenarios circle').count(), 0, 'no central dot for an INDICATIVE figure');
  assert.match(
    (await page.locator('details.explain-stage[open] tr.sum-row').first().textContent()) ?? '',
    /No sum to show/,
  );
  await shot(page, 'product-indicative');
  await context.close();
});

test('a withheld scenario is shown as withheld, with the API reason', { skip: skip ?? false }, async () => {
  const { context, page } = await open(DESKTOP);
  await page.goto(`${server.url}/explore/impact/products/bicycle`);
  await page.locator('select[name=scenario]').selectOption('S-RES');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/scenario=S-RES/);
  assert.match(
    (await page.locator('.notice.withheld').textContent()) ?? '',
    /Figures withheld\. Scenario S-RES has no validated published run/,
  );
  assert.equal(await page.locator('svg.chart').count(), 0, 'no chart without figures');
  await shot(page, 'product-withheld');
  await context.close();
});

test('compare two products through the form', { skip: skip ?? false }, async () => {
  const { context, page } = await open(DESKTOP);
  await page.goto(`${server.url}/explore/impact/compare`);
  await page.getByLabel('Product A').selectOption('smartphone');
  await page.getByLabel('Product B').selectOption('laptop');
  await page.getByRole('button', { name: 'Compare' }).click();
  await page.waitForURL(/a=smartphone&b=laptop/);
  await page.getByRole('img', { name: /Ratio of deaths, Smartphone to Laptop computer/ }).waitFor();
  assert.match((await page.locator('.chart-table').textContent()) ?? '', /Laptop computer is larger/);
  await shot(page, 'compare');
  await context.close();
});

test('spending by category for an amount', { skip: skip ?? false }, async () => {
  const { context, page } = await open(PHONE);
  await page.goto(`${server.url}/explore/impact/spend`);
  await page.getByLabel('Amount spent, in euros').fill('250');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/amount=250/);
  await page
    .getByRole('img', { name: /Deaths attributed to the supply chains of 250 EUR spent in each category/ })
    .waitFor();
  assert.match((await page.locator('p.headline').textContent()) ?? '', /250 EUR/);
  await shot(page, 'spend');
  await context.close();
});

test('bad input is a 400 page with the API detail', { skip: skip ?? false }, async () => {
  const { context, page } = await open(DESKTOP);
  const res = await page.goto(`${server.url}/explore/impact/spend?amount=-5`);
  assert.equal(res?.status(), 400);
  assert.match((await page.getByRole('alert').textContent()) ?? '', /Invalid query parameter 'amount'/);
  await shot(page, 'bad-input');
  await context.close();
});

// Last: it spends the rest of the address's allowance for the day.
test('the daily allowance used up: a page says so, and when it renews', { skip: skip ?? false }, async () => {
  let remaining = Number((await server.anon('/scenarios')).headers.get('x-ratelimit-remaining'));
  while (remaining > 0) remaining = Number((await server.anon('/scenarios')).headers.get('x-ratelimit-remaining'));
  const { context, page } = await open(PHONE);
  const res = await page.goto(`${server.url}/explore/impact/products/bicycle`);
  assert.equal(res?.status(), 429);
  assert.match((await page.locator('main').textContent()) ?? '', /renews at 00:00 UTC, in \d+ h \d+ min/);
  await shot(page, 'quota');
  await context.close();
});
