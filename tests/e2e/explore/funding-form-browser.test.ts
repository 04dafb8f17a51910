/**
 * The funding search form's "who may apply" boxes in a real browser (issue 34, item 6): each box
 * beside its words on one line, the group no taller than its content, and the fields around it not
 * pushed into a column as tall as the page. Measured from the laid-out page (bounding boxes), at
 * desktop and phone widths; screenshots in test-results/screenshots/explore-funding-form-*.png. And a
 * partial match's "not matching: pymes" under its title (issue 34d), as the API names the words.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launchBrowser, DESKTOP, PHONE, screenshot } from '../../helpers/browser.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/** Above this the group is a column again (it was 366 px at desktop, a label over each box). */
const MAX_GROUP_HEIGHT = { desktop: 150, phone: 300 };

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

interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
interface Geometry {
  boxes: Array<{ words: string; box: Rect; text: Rect }>;
  group: Rect;
  contentBottom: number;
  form: Rect;
}

/**
 * Where the browser laid out the group, each box and each box's words (a Range over the label's text).
 * A string, not a function: the test runner's transform would add helpers the page does not have.
 */
const MEASURE = `(() => {
  const rect = (r) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right });
  const group = document.querySelector('fieldset.applicants');
  const boxes = [...group.querySelectorAll('label')].map((label) => {
    const textNode = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    const range = document.createRange();
    range.selectNodeContents(textNode);
    return {
      words: textNode.textContent.trim(),
      box: rect(label.querySelector('input').getBoundingClientRect()),
      text: rect(range.getBoundingClientRect()),
    };
  });
  return {
    boxes,
    group: rect(group.getBoundingClientRect()),
    contentBottom: Math.max(...[...group.children].map((c) => c.getBoundingClientRect().bottom)),
    form: rect(document.querySelector('form.funding-filters').getBoundingClientRect()),
  };
})()`;
const measure = (page: Page) => page.evaluate(MEASURE) as Promise<Geometry>;

test(
  'who may apply: each box beside its words, the group no taller than its content',
  { skip: skip ?? false },
  async (t) => {
    for (const [width, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      server.clock.advance(60_000);
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/explore/funding`);
      const g = await measure(page);
      assert.ok(g.boxes.length >= 5, `${width}: the boxes are there`);
      for (const { words, box, text } of g.boxes) {
        const boxMiddle = (box.top + box.bottom) / 2;
        assert.ok(
          boxMiddle > text.top && boxMiddle < text.bottom,
          `${width}, "${words}": the box (${box.top}–${box.bottom}) is on the line of its words (${text.top}–${text.bottom})`,
        );
        const gap = Math.min(Math.abs(text.left - box.right), Math.abs(box.left - text.right));
        assert.ok(gap < 16, `${width}, "${words}": the box is beside its words (${gap.toFixed(1)} px apart)`);
      }
      const height = g.group.bottom - g.group.top;
      t.diagnostic(
        `${width}: the group is ${height.toFixed(0)} px tall, the form ${(g.form.bottom - g.form.top).toFixed(0)} px`,
      );
      assert.ok(height <= MAX_GROUP_HEIGHT[width], `${width}: the group is ${height} px tall`);
      assert.ok(g.group.bottom - g.contentBottom < 24, `${width}: no blank space under the last box`);
      // The boxes share lines: fewer lines than boxes at desktop width.
      const lines = new Set(g.boxes.map((b) => Math.round(b.box.top))).size;
      if (width === 'desktop')
        assert.ok(lines < g.boxes.length / 2, `desktop: ${g.boxes.length} boxes on ${lines} lines`);
      // The words are the box's label: a click on them ticks it.
      const first = g.boxes[0]!.words;
      await page.getByText(first, { exact: true }).click();
      assert.equal(
        await page.getByLabel(first, { exact: true }).isChecked(),
        true,
        `${width}: a click on "${first}" ticks it`,
      );
      await screenshot(page, `explore-funding-form-${width}`);
      await context.close();
    }
  },
);

test(
  'a partial match says which words it lacks: "not matching: pymes", from the API’s meta.not_matching',
  { skip: skip ?? false },
  async () => {
    server.clock.advance(60_000);
    const q = 'eficiencia energética pymes';
    const api = (await server.get(`/funding/v1/search?${new URLSearchParams({ q, per_page: '20' })}`)).json as {
      data: Array<{ id: string }>;
      meta: { total: number; not_matching: Record<string, string[]> };
    };
    const partial = api.data.filter((c) => c.id in api.meta.not_matching);
    assert.ok(api.meta.total > 0 && partial.length > 0, 'the query has full and partial matches');
    server.clock.advance(60_000);
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.url}/explore/funding?${new URLSearchParams({ q, per_page: '20' })}`);
    const shown = (await page.evaluate(`[...document.querySelectorAll('ol.calls > li.call')].map((li) => ({
      id: decodeURIComponent(li.querySelector('h3 a').getAttribute('href').split('/').pop()),
      note: li.querySelector('p.not-matching')?.innerText ?? null,
    }))`)) as Array<{ id: string; note: string | null }>;
    assert.deepEqual(
      shown.map((s) => s.id),
      api.data.map((c) => c.id),
      'the page lists the API’s calls in its order',
    );
    for (const s of shown) {
      const lacks = api.meta.not_matching[s.id];
      if (lacks) assert.equal(s.note, `Not matching: ${lacks.join(', ')}`, s.id);
      else assert.equal(s.note, null, `${s.id} holds every word and says nothing`);
    }
    // The note is visible (not hidden by the layout), under its call's title.
    const first = page.locator('li.call.partial p.not-matching').first();
    assert.ok(await first.isVisible());
    await first.scrollIntoViewIfNeeded();
    await screenshot(page, 'explore-funding-not-matching');
    await context.close();
  },
);
