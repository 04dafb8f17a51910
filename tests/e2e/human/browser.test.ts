/**
 * A live task end to end with a person in a real browser (Debian's Chromium, phone-sized): a client
 * with a prepaid balance orders over the API; a person the operator verified signs in to the console,
 * accepts the task, starts it and delivers an answer with a photo upload; the client reads the answer
 * and the evidence, disputes it, and the operator refunds; the client's console shows the money back.
 * Screenshots go to test-results/screenshots/human-*.png.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, screenshot } from '../../helpers/browser.ts';
import { STOREFRONT, withExif } from '../../lib/human/jpeg-exif.ts';
import { checkLedgerAfterEach, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';
import { operator } from './operator.ts';

const skip = browserMissing();
let server: HumanServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startHumanServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
});
checkLedgerAfterEach(() => server);

const shot = (page: Page, name: string) => screenshot(page, `human-${name}`);
const PASSWORD = 'a long enough password';

async function signUp(page: Page, email: string) {
  await page.goto(`${server.url}/console/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/console/keys');
}

test(
  'a live order done by a verified person in the console, disputed, and refunded by the operator',
  { skip: skip ?? false },
  async () => {
    const run = (...argv: string[]) => operator(server.databasePath, server.clock.ms, ...argv);

    // The client signs up, makes a live key in the console, and the operator credits €50.
    const desk = await browser.newContext();
    const page = await desk.newPage();
    await signUp(page, 'client@example.org');
    const human = page.locator('section#human');
    await human.locator('summary').click();
    await human.getByLabel('Name').fill('agent');
    await human.getByLabel('live (spends your balance)').check();
    await human.getByRole('button', { name: 'Create key' }).click();
    const key = await page.inputValue('#new-key');
    assert.match(key, /^ho_live_/);
    await run('balance', 'credit', '--account', 'client@example.org', '--amount', '5000');

    // The person signs up in the console; until verified, there is nothing to take.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const worker = await phone.newPage();
    await signUp(worker, 'walker@example.org');
    await worker.goto(`${server.url}/console/worker`);
    assert.match((await worker.textContent('main')) ?? '', /not verified/);
    await run('worker', 'verify', '--account', 'walker@example.org', '--countries', 'FR', '--cities', 'paris');

    const order = await server.order(key, verifyOrder());
    assert.equal(order.status, 201, order.text);
    const ref = order.json.data.ref as string;

    await worker.goto(`${server.url}/console/worker`);
    await worker.getByRole('heading', { name: 'Offered to you' }).waitFor();
    assert.match((await worker.locator('section[aria-labelledby="h-offered"]').textContent()) ?? '', new RegExp(ref));
    await shot(worker, '1-offered');
    await worker.getByRole('button', { name: `Accept ${ref}` }).click();
    await worker.waitForURL(`**/console/worker/tasks/${ref}`);
    await worker.getByRole('button', { name: 'I am on it: start' }).click();
    await worker.getByRole('heading', { name: 'Deliver' }).waitFor();
    assert.equal(await worker.locator('[data-status]').getAttribute('data-status'), 'in_progress');

    await worker.getByLabel('confirmed').check();
    await worker.getByLabel('What you saw').fill('Open on Sunday morning; the baker confirmed the hours.');
    await worker.getByLabel('Confidence (%)').fill('90');
    const photo = withExif(STOREFRONT, {
      latitude: 48.86432,
      longitude: 2.37891,
      accuracyM: 5,
      gpsTime: new Date('2026-11-22T10:30:00Z'),
    });
    await worker.setInputFiles('#files', { name: 'storefront.jpg', mimeType: 'image/jpeg', buffer: photo });
    await shot(worker, '2-deliver-form');
    await worker.getByRole('button', { name: 'Deliver' }).click();
    await worker.waitForURL(`**/console/worker/tasks/${ref}`);
    assert.equal(await worker.locator('[data-status]').getAttribute('data-status'), 'delivered');
    await shot(worker, '3-delivered');

    // The client collects over the API.
    const result = (await server.call('GET', `/tasks/${ref}/result`, key)).json.data;
    assert.deepEqual([result.status, result.answer.verdict, result.confidence_bps], ['delivered', 'confirmed', 9000]);
    const evidence = (await server.call('GET', `/tasks/${ref}/evidence`, key)).json.data;
    assert.equal(evidence[0].type, 'photo');
    assert.equal(evidence[0].size_bytes, photo.length);
    assert.equal(evidence[0].position.source, 'exif');

    // …disputes it, and the operator refunds.
    const disputed = await server.call('POST', `/tasks/${ref}/dispute`, key, {
      reason: 'wrong_answer',
      statement: 'The bakery is closed on Sundays; its door sign says so.',
    });
    assert.equal(disputed.json.data.status, 'disputed');
    const resolved = await run(
      'dispute',
      'resolve',
      '--task',
      ref,
      '--outcome',
      'refund',
      '--note',
      'The sign in the photo reads "fermé le dimanche".',
    );
    assert.equal(resolved.status, 'refunded');

    // The client sees the money back in the console, and the person sees the outcome.
    await page.goto(`${server.url}/console/balance`);
    assert.equal(await page.locator('[data-available]').getAttribute('data-available'), '5000');
    assert.equal(await page.locator('[data-held]').getAttribute('data-held'), '0');
    assert.match((await page.textContent('main')) ?? '', /Released back/);
    await shot(page, '4-balance-refunded');
    await worker.goto(`${server.url}/console/worker/tasks/${ref}`);
    assert.match((await worker.textContent('main')) ?? '', /This task is refunded/);
    await phone.close();
    await desk.close();
  },
);
