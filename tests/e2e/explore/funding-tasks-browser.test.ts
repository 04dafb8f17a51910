/**
 * The funding search and the tasks playground in a real browser (Debian's Chromium), at desktop and
 * phone widths. A person searches funding calls with the form (a region and a deadline window too),
 * pages, opens a call, meets a refusal; signs up through the console, quotes and orders a sandbox task, watches it move (the page reloads
 * itself when the API's poll_after_s has passed), reads the result and the photo, disputes it, and
 * cancels another. The phone pass runs with JavaScript off: every page works without it. No page
 * breaks its Content-Security-Policy. Screenshots of every page go to test-results/screenshots/
 * (explore-funding-*.png, explore-tasks-*.png) for a person to look at.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserMissing, launchBrowser, DESKTOP, PHONE, screenshot } from '../../helpers/browser.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const DELAY_MS = 1000;
const skip = browserMissing();
let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  // The funding pages on the trap fixtures: a call with CORDIS projects and a Madrid deadline window,
  // which the real samples do not have.
  server = await startTestServer({
    env: { SANDBOX_DELAY_MS: String(DELAY_MS), HUMAN_SCHEDULER_TICK_MS: '60000' },
    fundingCorpus: 'traps',
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
});

const shot = (page: Page, name: string) => screenshot(page, `explore-${name}`);

/** Moves the sandbox: the clock forward, then scheduler passes until nothing more is due. */
async function advance(ms: number) {
  server.clock.advance(ms);
  const scheduler = server.app.ctx.human.scheduler;
  while ((await scheduler.tick()) > 0) {
    /* steps due one after another */
  }
}

/** A page that records every Content-Security-Policy violation and script error it meets. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // Refusals the test asks for (400, 429 pages) are logged as failed loads: not a problem.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}

/** Fresh UTC minute: the anonymous allowances the pages spend are whole again. */
const freshMinute = () => server.clock.advance(60_000);

test(
  'funding: search with the form, page, open a call, meet a refusal and the limit',
  { skip: skip ?? false },
  async () => {
    freshMinute();
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const context = await browser.newContext({ viewport, javaScriptEnabled: width === 'desktop' });
      const { page, problems } = await watchedPage(context);
      await page.goto(`${server.url}/explore/funding`);
      await page.getByText(/Anonymous tier:/).waitFor();
      await shot(page, `funding-1-search-${width}`);

      await page.getByLabel('Status').selectOption('open');
      await page.getByLabel('Sort').selectOption('deadline');
      await page.getByLabel('Per page').fill('3');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/status=open/);
      const api = (await (
        await fetch(`${server.url}/funding/v1/search?status=open&sort=deadline&per_page=3`)
      ).json()) as { data: Array<{ title: string }>; meta: { total: number } };
      const titles = await page.locator('li.call h3').allTextContents();
      assert.deepEqual(
        titles.map((t) => t.trim()),
        api.data.map((c) => c.title),
        'the page lists what the API returns',
      );
      assert.match(
        (await page.locator('p.count').textContent()) ?? '',
        new RegExp(`${api.meta.total} published calls match`),
      );
      await shot(page, `funding-2-results-${width}`);

      await page.getByRole('link', { name: 'Next page →' }).click();
      await page.waitForURL(/cursor=/);
      assert.match((await page.locator('nav.pager').textContent()) ?? '', /Page 2/);
      await page.getByRole('link', { name: '← Previous page' }).waitFor();

      await page.goto(`${server.url}/explore/funding`);
      await page.getByLabel('Region').fill('Madrid');
      await page.getByLabel('Deadline on or after').fill('2026-12-15');
      await page.getByLabel('Deadline on or before').fill('2027-02-28');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/region=Madrid/);
      const windowed = new URL(page.url()).searchParams;
      assert.equal(windowed.get('deadline_from'), '2026-12-15');
      assert.equal(windowed.get('deadline_to'), '2027-02-28');
      const madrid = (await (
        await fetch(`${server.url}/funding/v1/search?region=Madrid&deadline_from=2026-12-15&deadline_to=2027-02-28`)
      ).json()) as { data: Array<{ title: string }> };
      assert.ok(madrid.data.length > 0);
      assert.deepEqual(
        (await page.locator('li.call h3').allTextContents()).map((t) => t.trim()),
        madrid.data.map((c) => c.title),
        'the region and deadline window list what the API returns',
      );
      assert.equal(await page.getByLabel('Deadline on or before').inputValue(), '2027-02-28', 'the form keeps them');
      await shot(page, `funding-2b-region-deadline-${width}`);

      await page.goto(`${server.url}/explore/funding?source=eu&status=closed`);
      await page
        .locator(`li.call h3 a[href="/explore/funding/calls/${encodeURIComponent('eu:LIFE-2025-SAP-NAT')}"]`)
        .click();
      await page.waitForURL(/\/explore\/funding\/calls\//);
      await page.getByRole('heading', { name: 'Projects funded under this call (CORDIS)' }).waitFor();
      await shot(page, `funding-3-call-${width}`);
      await page.goto(
        `${server.url}/explore/funding/calls/${encodeURIComponent('eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12')}`,
      );
      assert.match((await page.locator('dl.call-detail').textContent()) ?? '', /at 17:00 \(Europe\/Brussels time\)/);
      await shot(page, `funding-4-call-cutoffs-${width}`);

      await page.goto(`${server.url}/explore/funding?country=Spain`);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Invalid query parameter 'country'/);
      await shot(page, `funding-5-bad-filter-${width}`);

      // Spend the rest of this minute's anonymous allowance, as a busy neighbour on the same address would.
      while ((await fetch(`${server.url}/funding/v1/sources`)).status !== 429) {
        /* spend */
      }
      const limited = await page.goto(`${server.url}/explore/funding?status=open`);
      assert.equal(limited!.status(), 429);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /More than 60 calls a minute\. Wait 1 s\./);
      await page.getByText(/Try again in \d+ s/).waitFor();
      await shot(page, `funding-6-rate-limited-${width}`);
      freshMinute();
      assert.deepEqual(problems, [], 'no CSP violation or script error');
      await context.close();
    }
  },
);

test(
  'tasks: sign up, quote, order, watch it move, read the result and photo, dispute, cancel',
  { skip: skip ?? false },
  async () => {
    freshMinute();
    const context = await browser.newContext({ viewport: DESKTOP });
    const { page, problems } = await watchedPage(context);

    await page.goto(`${server.url}/explore/tasks`);
    await shot(page, 'tasks-1-sign-in-invite-desktop');
    await page.getByRole('link', { name: 'create an account' }).click();
    await page.getByLabel('E-mail').fill('explorer@example.org');
    await page.getByLabel(/^Password/).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/console/keys');
    await page.goto(`${server.url}/explore/tasks`);
    await page.getByText('Signed in as explorer@example.org').waitFor();
    await shot(page, 'tasks-2-home-desktop');

    await page.getByLabel('Task type').selectOption('human.verify');
    await page.getByLabel('City').selectOption('FR/paris');
    await page.getByLabel('SLA').selectOption('standard');
    await page.getByRole('button', { name: 'Get a quote' }).click();
    await page.waitForURL(/\/explore\/tasks\/quote\?/);
    assert.match((await page.locator('h1').textContent()) ?? '', /^Quote: €18\.00 \(1,800 cents\)$/);
    await shot(page, 'tasks-3-quote-desktop');

    await page.getByLabel('claim', { exact: true }).fill('The bakery at 12 Rue Oberkampf is open on Sundays');
    await page.getByLabel('subject', { exact: true }).fill('Boulangerie Martin, 12 Rue Oberkampf');
    await page.getByRole('button', { name: 'Order in the sandbox' }).click();
    await page.waitForURL(/\/explore\/tasks\/tsk_[0-9A-Za-z]{20}$/);
    const taskUrl = page.url();
    await page.locator('.state-pending').waitFor();
    await page.getByText(/Watching: this page reloads in \d+ s\./).waitFor();

    // The sandbox moves; the page, watching, reloads itself and shows each state.
    await advance(DELAY_MS);
    await page.locator('.state-dispatched').waitFor({ timeout: 15_000 });
    await advance(2 * DELAY_MS);
    await page.locator('.state-delivered').waitFor({ timeout: 15_000 });
    const history = await page.locator('table.history tbody tr td:first-child').allTextContents();
    assert.deepEqual(history, ['Pending', 'Dispatched', 'In progress', 'Delivered']);
    assert.match((await page.locator('dl.result').textContent()) ?? '', /95 % \(9,500 basis points\)/);
    const photo = page.locator('ul.evidence img');
    await photo.waitFor();
    assert.ok(
      await photo.evaluate((img) => {
        const shown = img as unknown as { complete: boolean; naturalWidth: number };
        return shown.complete && shown.naturalWidth > 0;
      }),
      'the photo loads through the explorer',
    );
    assert.match((await photo.getAttribute('alt')) ?? '', /Photo evidence evd_\d+ \(synthetic, made by the sandbox\)/);
    await shot(page, 'tasks-4-delivered-desktop');

    await page.getByLabel('What is wrong').selectOption('insufficient_evidence');
    await page.getByLabel(/In your words/).fill('The photo does not show the opening hours on the door.');
    await page.getByRole('button', { name: 'Dispute the answer' }).click();
    await page.locator('.state-disputed').waitFor();
    await shot(page, 'tasks-5-disputed-desktop');

    await page.goto(`${server.url}/explore/tasks/quote?capability=human.verify&location=FR%2Fparis&sla=standard`);
    await page.getByLabel('claim', { exact: true }).fill('sandbox:stay_pending');
    await page.getByLabel('subject', { exact: true }).fill('A shop to rehearse cancelling');
    await page.getByRole('button', { name: 'Order in the sandbox' }).click();
    await page.locator('.state-pending').waitFor();
    await shot(page, 'tasks-6-pending-desktop');
    await page.getByLabel('Why cancel').selectOption('ordered_by_mistake');
    await page.getByRole('button', { name: 'Cancel this task' }).click();
    await page.locator('.state-cancelled').waitFor();
    assert.match((await page.locator('table.history').textContent()) ?? '', /reason: ordered_by_mistake/);
    await shot(page, 'tasks-7-cancelled-desktop');

    await page.goto(`${server.url}/explore/tasks`);
    assert.equal(await page.locator('table.tasks tbody tr').count(), 2);
    await shot(page, 'tasks-8-home-with-tasks-desktop');
    await page.goto(`${server.url}/explore/tasks/quote?capability=human.verify&location=FR%2Flille&sla=standard`);
    await page.getByRole('heading', { name: 'No quote: location not served' }).waitFor();
    await shot(page, 'tasks-9-refused-quote-desktop');
    await page.goto(`${server.url}/explore/tasks/quote?capability=human.verify&location=FR%2Fparis&sla=turbo`);
    await page.getByRole('alert').waitFor();
    await shot(page, 'tasks-10-bad-input-desktop');

    await page.goto(`${server.url}/console/keys`);
    assert.match(
      (await page.locator('section#human').textContent()) ?? '',
      /Explorer playground/,
      'the playground key is in the console',
    );
    assert.deepEqual(problems, [], 'no CSP violation or script error');

    // The same pages on a phone, with JavaScript off: the playground works without it.
    freshMinute();
    const phone = await browser.newContext({
      viewport: PHONE,
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const signedOut = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const invite = await signedOut.newPage();
    await invite.goto(`${server.url}/explore/tasks`);
    await shot(invite, 'tasks-1-sign-in-invite-phone');
    const p = await phone.newPage();
    await p.goto(`${server.url}/explore/tasks`);
    await shot(p, 'tasks-2-home-phone');
    await p.getByLabel('City').selectOption('ES/madrid');
    await p.getByRole('button', { name: 'Get a quote' }).click();
    await p.waitForURL(/\/explore\/tasks\/quote\?/);
    await shot(p, 'tasks-3-quote-phone');
    await p.getByLabel('claim', { exact: true }).fill('The pharmacy on Calle Mayor has a night service');
    await p.getByLabel('subject', { exact: true }).fill('Farmacia Mayor 12');
    await p.getByRole('button', { name: 'Order in the sandbox' }).click();
    await p.locator('.state-pending').waitFor();
    assert.equal(await p.getByRole('link', { name: 'Refresh' }).count(), 1, 'without JavaScript: a refresh link');
    await shot(p, 'tasks-6-pending-phone');
    await advance(3 * DELAY_MS);
    await p.getByRole('link', { name: 'Refresh' }).click();
    await p.locator('.state-delivered').waitFor();
    await shot(p, 'tasks-4-delivered-phone');
    for (const [path, name] of [
      [new URL(taskUrl).pathname, 'tasks-5-disputed-phone'],
      ['/explore/tasks', 'tasks-8-home-with-tasks-phone'],
      ['/explore/tasks/quote?capability=human.verify&location=FR%2Flille&sla=standard', 'tasks-9-refused-quote-phone'],
      ['/explore/tasks/quote?capability=human.verify&location=FR%2Fparis&sla=turbo', 'tasks-10-bad-input-phone'],
    ] as const) {
      await p.goto(`${server.url}${path}`);
      await shot(p, name);
    }
    const cancelled = await p.goto(`${server.url}/explore/tasks`);
    assert.equal(cancelled!.status(), 200);
    await p.locator('table.tasks a').filter({ hasText: /tsk_/ }).nth(1).click();
    await p.locator('.state-cancelled').waitFor();
    await shot(p, 'tasks-7-cancelled-phone');
    await Promise.all([phone.close(), signedOut.close(), context.close()]);
  },
);
