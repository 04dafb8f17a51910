/**
 * Headless Chromium (Debian's package) driven by playwright-core, with the flags that work without a
 * network. `.ci/run` installs chromium; on a laptop without it browser tests are skipped with a note,
 * except under CI, where a missing browser fails the run.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (process.env.CI) throw new Error(`Chromium is not at ${CHROMIUM}: .ci/run should have installed it`);
  return `Chromium is not installed (apt-get install chromium): browser tests skipped`;
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The two widths every page is checked and photographed at. */
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * The page as shown, saved as test-results/screenshots/<name>.png: for people to look at, never
 * compared by a test. The first screen (the viewport) by default; the whole page, however long, with
 * SCREENSHOTS=full. A full-page shot of the longer pages (up to 50,000 px on a phone) took 2 to 13 s
 * on a loaded 2-core machine against well under a second for the first screen: the browser tests'
 * biggest cost, for a picture no assertion reads.
 */
export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: process.env.SCREENSHOTS === 'full' });
