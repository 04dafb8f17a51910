/**
 * The e-mail pages of the console in a real browser (issue 35), with a real SMTP server: a person signs
 * up, opens the link from the message, signs in, sets a saved search to the daily digest (the page
 * shows the choice), signs out, forgets the password, asks for a link from the sign-in page, chooses
 * a new password with it and is signed in. Screenshots go to test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, screenshot } from '../../helpers/browser.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { linkIn, startSmtp, type TestSmtp } from '../../helpers/smtp.ts';

const skip = browserMissing();
let server: TestServer;
let smtp: TestSmtp;
let browser: Browser;
before(async () => {
  if (skip) return;
  smtp = await startSmtp();
  // The deliverer's own loop sends (every 50 ms): the browser waits for the message like a person.
  server = await startTestServer({ env: { SMTP_URL: smtp.url, MAIL_POLL_MS: '50' } });
  server.clock.set(new Date().toISOString());
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.cleanup();
  await smtp?.close();
});

const shot = (page: Page, name: string) => screenshot(page, `mail-${name}`);

test(
  'sign up and confirm, follow a search by e-mail, reset a forgotten password',
  { skip: skip ?? false },
  async () => {
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(`${server.url}/console/sign-up`);
    await page.getByLabel('E-mail').fill('lucia@example.org');
    await page.getByLabel(/^Password/).fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('We sent a link to').waitFor();
    await shot(page, '1-check-inbox');
    const [confirm] = await smtp.waitFor(1);
    await page.goto(linkIn(confirm!, '/console/verify/'));
    await page.locator('[data-verified="yes"]').waitFor();
    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await page.getByLabel('E-mail').fill('lucia@example.org');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console/keys');

    await page.goto(`${server.url}/console/saved-searches`);
    await page.getByLabel('Name').fill('Hidrógeno');
    await page.getByLabel(/^Search/).fill('q=hidrógeno&status=open');
    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByRole('radio', { name: 'In my daily digest' }).check();
    await page.getByRole('button', { name: 'Save alerts' }).click();
    await page.locator('dd[data-alerts="daily"]').waitFor();
    assert.equal(await page.getByRole('radio', { name: 'In my daily digest' }).isChecked(), true);
    await page.getByRole('link', { name: '← Saved searches' }).click();
    assert.match(await page.locator('[data-alerts="daily"]').innerText(), /In my daily digest/);
    await page.getByLabel('Language of the alerts').selectOption('es');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    assert.equal(await page.getByLabel('Language of the alerts').inputValue(), 'es');
    await shot(page, '2-saved-searches');
    await page.getByRole('button', { name: 'Sign out' }).click();

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill('lucia@example.org');
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.locator('[data-forgot="sent"]').waitFor();
    await shot(page, '3-forgot-sent');
    const received = await smtp.waitFor(2);
    await page.goto(linkIn(received[1]!, '/console/password/'));
    await page.getByLabel('New password').fill('another long passphrase');
    await page.getByLabel('The same again').fill('another long passphrase');
    await page.getByRole('button', { name: 'Reset password and sign in' }).click();
    await page.waitForURL('**/console/keys');
    assert.match(await page.locator('nav').innerText(), /Signed in as lucia@example\.org/);
  },
);
