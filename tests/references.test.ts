/**
 * Every reference resolves inside the repository (issue 19): no file cites a path outside it (the
 * service documents and SPEC live in docs/services/), every repository path a comment or a doc names
 * exists, and every `SPEC "Section"` citation names a heading or term of docs/services/SPEC.md.
 * Fixtures are left out: they are the sources' own bytes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'coverage',
  'dist',
  'data',
  'fixtures',
  'test-results',
  '.c8_output',
  '.cache',
]);
const TEXT = /\.(ts|js|cjs|md|sql|json|service|timer|example)$|^(Dockerfile|run)$/;
const THIS_FILE = relative(ROOT, import.meta.filename);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(join(dir, entry.name));
    } else if (TEXT.test(entry.name) && entry.name !== 'package-lock.json') {
      yield relative(ROOT, join(dir, entry.name));
    }
  }
}

const sources = [...files(ROOT)].filter((f) => f !== THIS_FILE && !f.startsWith('docs/services/'));

/** Each line of each file, with where it is. */
function* lines(): Generator<{ where: string; line: string }> {
  for (const file of sources) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    let n = 0;
    for (const line of text.split('\n')) yield { where: `${file}:${++n}`, line };
  }
}

// A path out of the repository, or a name only the seeds folder had.
const OUTSIDE = [
  { what: 'a path outside the repository', re: /\.\.\/shared\b|\/work\/|(?<![\w/])\/?shared\/(seeds|reference|SPEC)/ },
  { what: 'the seeds folder (cite docs/services/ instead)', re: /\bseeds\/|\b00[0-2]_[0-9a-f]{16}\b/ },
  { what: 'a document by number (cite docs/services/<service>.txt)', re: /\bdocument (seeds\/)?00[0-2]\b/i },
];

// A repository path: a top-level folder or a top-level Markdown file, not inside a URL or an import.
// (Not tools/: MCP's tools/list and tools/call would read as paths.) bench/.cache/ is made by the bench.
const TOP = ['docs', 'lib', 'db', 'routes', 'cli', 'bench', 'tests', 'deploy', 'fixtures'];
const GENERATED = ['bench/.cache'];
const PATH = new RegExp(String.raw`(?<![\w./@:-])((?:${TOP.join('|')})/[\w./@-]*|[A-Z][A-Z_]+\.md)`, 'g');
// Placeholders and patterns name no single file: routes/<service>/, db/migrations/NNN_*.sql, {a,b}.
const PATTERN = /[<>{}*$…]|NNN|\.\.\.$/;

test('no file cites a path outside the repository', () => {
  const found: string[] = [];
  for (const { where, line } of lines()) {
    for (const { what, re } of OUTSIDE) if (re.test(line)) found.push(`${where}: ${what}: ${line.trim()}`);
  }
  assert.deepEqual(found, []);
});

/** The prose of a line: all of it in docs and unit files, only the comment in code (whose strings are data). */
function prose(where: string, line: string): string {
  if (!/\.(ts|js|cjs|sql):\d+$/.test(where)) return line;
  const trimmed = line.trim();
  if (/^(\*|\/\*|\/\/|--)/.test(trimmed)) return line;
  const comment = line.search(/(?<!:)\/\/ | -- /);
  return comment === -1 ? '' : line.slice(comment);
}

test('every repository path a comment or a doc names exists', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const { where, line } of lines()) {
    const text = prose(where, line);
    for (const match of text.matchAll(PATH)) {
      const path = match[1]!.replace(/[.:,;)]+$/, '');
      if (PATTERN.test(text.slice(match.index, match.index + match[0].length + 1))) continue;
      if (GENERATED.some((g) => path.startsWith(g))) continue;
      checked++;
      if (!existsSync(join(ROOT, path))) missing.push(`${where}: ${path}`);
    }
  }
  assert.ok(checked >= 200, `the scan sees the paths the docs and comments name (${checked})`);
  assert.deepEqual(missing, []);
});

test('every SPEC citation names a heading or term of docs/services/SPEC.md', () => {
  const spec = readFileSync(join(ROOT, 'docs/services/SPEC.md'), 'utf8');
  const unknown: string[] = [];
  let cited = 0;
  for (const { where, line } of lines()) {
    for (const match of line.matchAll(/SPEC[: ]+"([^"]+)"/g)) {
      cited++;
      if (!spec.includes(match[1]!)) unknown.push(`${where}: SPEC "${match[1]}"`);
    }
  }
  assert.ok(cited >= 20, `the scan sees the code's SPEC citations (${cited})`);
  assert.deepEqual(unknown, []);
});

test('the service documents are in docs/services/', () => {
  for (const name of ['impact.txt', 'human.txt', 'funding.txt', 'SPEC.md']) {
    assert.ok(existsSync(join(ROOT, 'docs/services', name)), `docs/services/${name}`);
  }
  assert.match(readFileSync(join(ROOT, 'docs/services/impact.txt'), 'utf8'), /^# Impact Attribution Service: Read API/);
  assert.match(readFileSync(join(ROOT, 'docs/services/human.txt'), 'utf8'), /^# Human Task Ordering Service/);
  assert.match(readFileSync(join(ROOT, 'docs/services/funding.txt'), 'utf8'), /^# Funding Corpus Service: Read API/);
});
