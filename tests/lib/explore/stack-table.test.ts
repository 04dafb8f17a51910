/** Tables made to fit a phone: the stack class, and each data cell labelled by its column header. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { html } from '../../../lib/html.ts';
import { stackLabels } from '../../../lib/explore/stack-table.ts';

test('labels each cell by its column; row headers, spanning cells and labelled cells are left as they are', () => {
  const table = html`<table class="explain" id="x"><caption>c</caption><thead><tr><th scope="col">Part</th><th scope="col">As quoted <span>(p05–p95)</span></th><th scope="col" class="num">Share</th></tr></thead>
<tbody><tr><th scope="row">a</th><td>1.0</td><td class="num">50%</td></tr><tr><td colspan="2">none</td><td data-label="Own">x</td></tr></tbody><tfoot><tr><th scope="row">Sum</th><td></td><td class="num" data-sum="1">100%</td></tr></tfoot></table>`;
  assert.equal(
    stackLabels(table).value,
    `<table class="stack explain" id="x"><caption>c</caption><thead><tr><th scope="col">Part</th><th scope="col">As quoted <span>(p05–p95)</span></th><th scope="col" class="num">Share</th></tr></thead>
<tbody><tr><th scope="row">a</th><td data-label="As quoted (p05–p95)">1.0</td><td class="num" data-label="Share">50%</td></tr><tr><td colspan="2">none</td><td data-label="Own">x</td></tr></tbody><tfoot><tr><th scope="row">Sum</th><td data-label="As quoted (p05–p95)"></td><td class="num" data-sum="1" data-label="Share">100%</td></tr></tfoot></table>`,
  );
});

test('a table without a class gets one; a header with a quote stays a valid attribute; no header row, no change', () => {
  assert.equal(
    stackLabels(
      html`<table><thead><tr><th scope="col">Line</th><th scope="col">"Role"</th></tr></thead><tbody><tr><td>1</td><td>r</td></tr></tbody></table>`,
    ).value,
    '<table class="stack"><thead><tr><th scope="col">Line</th><th scope="col">"Role"</th></tr></thead><tbody><tr><td data-label="Line">1</td><td data-label="&quot;Role&quot;">r</td></tr></tbody></table>',
  );
  const plain = html`<table><tr><td>1</td></tr></table>`;
  assert.equal(stackLabels(plain), plain);
});
