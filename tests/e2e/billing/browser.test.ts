/**
 * A person pays from the console in a real browser (issue 36): tops up the balance and buys the pro
 * plan, each form leaving for the (stand-in) Stripe Checkout page, which the console's CSP must allow
 * as the form's redirect; the balance and the tier change only when the signed events arrive; the
 * billing portal button leaves for the portal. Screenshots go to test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, screenshot } from '../../helpers/browser.ts';
import { deliver, startBillingServer, type BillingServer } from './harness.ts';

const skip = browserMissing();
let billing: BillingServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  billing = await startBillingServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await billing?.stop();
});

const shot = (page: Page, name: string) => screenshot(page, `billing-${name}`);

test('a person tops up and buys the pro plan from the console', { skip: skip ?? false }, async () => {
  const { server, stripe } = billing;
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  await page.goto(`${server.url}/console/sign-up`);
  await page.getByLabel('E-mail').fill('payer@example.org');
  await page.getByLabel(/^Password/).fill('correct horse battery staple');
  await page.getByRole('button', { name: /Create/ }).click();

  await page.goto(`${server.url}/console/balance`);
  await page.getByLabel(/Amount in euros/).fill('25,50');
  await shot(page, '1-top-up-form');
  await page.getByRole('button', { name: 'Pay with Stripe' }).click();
  await page.waitForURL(`${stripe.url}/c/pay/**`);
  assert.deepEqual(blocked, [], 'the CSP lets the form continue to Checkout');
  const session = stripe.lastSession() as { id: string; amount_total: number; success_url: string };
  assert.equal(await page.textContent('#object'), session.id);
  assert.equal(session.amount_total, 2550);

  // Stripe confirms; the browser comes back to the success address.
  assert.equal((await deliver(billing, stripe.pay(session.id))).json.outcome, 'credited');
  await page.goto(session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id));
  await page.waitForSelector('[data-available="2550"]');
  assert.match((await page.textContent('main'))!, /your top-up of €25\.50 is credited/);
  await shot(page, '2-credited');

  await page.goto(`${server.url}/console/plan`);
  await page.waitForSelector('[data-tier="basic"]');
  await page.getByRole('button', { name: 'Subscribe to pro with Stripe' }).click();
  await page.waitForURL(`${stripe.url}/c/pay/**`);
  const plan = stripe.lastSession() as { id: string };
  await deliver(billing, stripe.pay(plan.id));
  await page.goto(`${server.url}/console/plan?checkout=done`);
  await page.waitForSelector('[data-tier="pro"]');
  assert.match((await page.textContent('main'))!, /your pro plan is active/);
  await shot(page, '3-pro');
  await page.getByRole('button', { name: /Manage billing/ }).click();
  await page.waitForURL(`${stripe.url}/p/session/**`);
  assert.deepEqual(blocked, []);
});
