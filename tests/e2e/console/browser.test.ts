/**
 * A person at the console, in a real browser: sign up, sign out, sign in, create a key of each
 * service (shown once, with a copy button), use the funding key against its API, see the keys listed
 * without secrets, rotate one (both work), revoke the old one (refused on the next call), sign out.
 * Screenshots go to test-results/screenshots/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, screenshot } from '../../helpers/browser.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const skip = browserMissing();
let server: TestServer;
let browser: Browser;
before(async () => {
  if (skip) return;
  server = await startTestServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
});

const shot = (page: Page, name: string) => screenshot(page, `console-${name}`);

async function newKey(page: Page, service: 'funding' | 'impact' | 'human', name: string): Promise<string> {
  await page.goto(`${server.url}/console/keys`);
  const section = page.locator(`section#${service}`);
  await section.locator('summary').click();
  await section.getByLabel('Name').fill(name);
  if (service === 'human') await section.getByLabel('live (spends your balance)').check();
  await section.getByRole('button', { name: 'Create key' }).click();
  await page.waitForSelector('#new-key');
  return page.inputValue('#new-key');
}

test('a person gets, uses, rotates and revokes keys through the console', { skip: skip ?? false }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } }); // a phone
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();

  await page.goto(`${server.url}/console`);
  await page.getByRole('link', { name: 'Create an account' }).first().click();
  await page.getByLabel('E-mail').fill('reader@example.org');
  await page.getByLabel(/^Password/).fill('correct horse battery staple');
  await shot(page, '1-sign-up');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/console/keys');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/console/sign-in');

  await page.getByLabel('E-mail').fill('reader@example.org');
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/console/keys');
  await shot(page, '2-keys-empty');

  const fundingKey = await newKey(page, 'funding', 'laptop');
  assert.match(fundingKey, /^fnd_[0-9A-Za-z]{49}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), fundingKey);
  await shot(page, '3-key-shown-once');
  const impactKey = await newKey(page, 'impact', 'notebook');
  assert.match(impactKey, /^ia_/);
  const humanKey = await newKey(page, 'human', 'agent');
  assert.match(humanKey, /^ho_live_/);

  // Each key works against its own API, as its document says to send it.
  const used = await fetch(`${server.url}/funding/v1/search?status=open`, { headers: { 'x-api-key': fundingKey } });
  assert.equal(used.status, 200);
  assert.equal(used.headers.get('x-api-tier'), 'basic');
  const impact = await fetch(`${server.url}/impact/v1/products`, { headers: { authorization: `Bearer ${impactKey}` } });
  assert.equal(impact.status, 200);
  assert.equal(impact.headers.get('x-ratelimit-limit'), '10000', 'the keyed daily allowance');
  const human = await fetch(`${server.url}/human/v1/tasks`, { headers: { authorization: `Bearer ${humanKey}` } });
  assert.equal(human.status, 200);
  assert.deepEqual(((await human.json()) as { data: unknown[] }).data, []);
  const wrongService = await fetch(`${server.url}/human/v1/tasks`, {
    headers: { authorization: `Bearer ${impactKey}` },
  });
  assert.equal(wrongService.status, 401, 'a key of one service is not a key of another');

  await page.goto(`${server.url}/console/keys`);
  const listing = await page.content();
  for (const secret of [fundingKey, impactKey, humanKey]) assert.ok(!listing.includes(secret), 'no secret in the list');
  assert.ok(listing.includes(fundingKey.slice(0, 8)), 'the display prefix is listed');
  await page.reload(); // nothing shows the key again
  assert.equal(await page.locator('#new-key').count(), 0);
  await shot(page, '4-keys-listed');

  const funding = page.locator('section#funding');
  await funding.getByLabel('Old key works').selectOption('24h');
  await funding.getByRole('button', { name: 'Rotate' }).click();
  await page.waitForSelector('#new-key');
  const rotated = await page.inputValue('#new-key');
  assert.notEqual(rotated, fundingKey);
  assert.match((await page.textContent('main')) ?? '', /works until/);
  await shot(page, '5-rotated');
  for (const k of [fundingKey, rotated]) {
    assert.equal(
      (await fetch(`${server.url}/funding/v1/sources`, { headers: { 'x-api-key': k } })).status,
      200,
      'both keys work after rotation',
    );
  }

  await page.goto(`${server.url}/console/keys`);
  await page
    .getByRole('button', { name: `Revoke laptop (${fundingKey.slice(0, 8)})` })
    .first()
    .click();
  await page.waitForURL('**/console/keys');
  assert.match((await page.locator('section#funding').textContent()) ?? '', /revoked/);
  await shot(page, '6-revoked');
  const refused = await fetch(`${server.url}/funding/v1/sources`, { headers: { 'x-api-key': fundingKey } });
  assert.equal(refused.status, 401);
  assert.equal(((await refused.json()) as { error: string }).error, 'revoked_key');
  assert.equal((await fetch(`${server.url}/funding/v1/sources`, { headers: { 'x-api-key': rotated } })).status, 200);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/console/sign-in');
  await page.goto(`${server.url}/console/keys`);
  await page.waitForURL('**/console/sign-in');
  await context.close();
});
