/**
 * The figures the documents quote are the benchmarks' (issue 29): every figure marked in a document
 * (`<!-- figure:NAME -->…<!-- /figure -->`, bench/doc-figures.ts) says what the blocks in BENCHMARKS.md
 * say now, and a speed or throughput figure the document states without a mark is either found in
 * BENCHMARKS.md or said to be an estimate. A figure whose block, row or sentence is gone fails here,
 * naming it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIGURE_DOCS, fillFigures } from '../bench/doc-figures.ts';

const ROOT = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const benchmarks = read('BENCHMARKS.md');

test('every marked figure is what BENCHMARKS.md says now', () => {
  for (const doc of FIGURE_DOCS) {
    const text = read(doc);
    const filled = fillFigures(text, benchmarks);
    const marks = (t: string) => [...t.matchAll(/<!-- figure:([\w.]+) -->([\s\S]*?)<!-- \/figure -->/g)];
    const stale = marks(text)
      .map((m, i) => ({ name: m[1], says: m[2], benchmarks: marks(filled)[i]![2] }))
      .filter((f) => f.says !== f.benchmarks);
    assert.deepEqual(stale, [], `${doc}: figures that disagree with BENCHMARKS.md (npm run bench rewrites them)`);
    assert.ok(marks(text).length > 20, `${doc} marks the figures it quotes`);
  }
});

test('a speed figure without a mark is in BENCHMARKS.md, or said to be an estimate', () => {
  const UNIT = /(~?\d[\d,.]*)(?:–\d[\d,.]*)?\s*(?:µs|ms|(?:[a-z ]*)\/s\b)/g;
  for (const doc of FIGURE_DOCS) {
    const unmarked = read(doc).replace(/<!-- figure:[\w.]+ -->[\s\S]*?<!-- \/figure -->/g, '');
    // Paragraphs and list items: an estimate is said so in the same one.
    for (const chunk of unmarked.split(/\n\s*\n|\n(?=\s*[-|] )/)) {
      if (/estimate|rule of thumb/i.test(chunk)) continue;
      for (const m of chunk.matchAll(UNIT)) {
        const figure = m[1]!.replace(/^~/, '');
        assert.ok(
          new RegExp(`(^|[^\\d,.])${figure.replace(/[.]/g, '\\.')}([^\\d,]|$)`).test(benchmarks),
          `${doc}: '${m[0]}' is in no benchmark block or note of BENCHMARKS.md (mark it, or say it is an estimate)`,
        );
      }
    }
  }
});
