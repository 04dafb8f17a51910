/**
 * Standard output in batches (lib/http/log.ts, the logger `serve` writes with): every line arrives, in
 * order, at exit too; and a warning goes out at once with the lines before it, without waiting for
 * the batch (the child is blocked for good right after it, so only a write made at once can arrive).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, test } from 'node:test';

const LOG = join(import.meta.dirname, '..', '..', '..', 'lib', 'http', 'log.ts');

const children: Array<{ kill(signal: NodeJS.Signals): boolean }> = [];
after(() => children.forEach((c) => c.kill('SIGKILL'))); // a child left blocked by a failing test

/** A process that logs with createLogger's own output; its stdout as lines as they come. */
function child(code: string) {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { createLogger } = await import(${JSON.stringify(LOG)});\n${code}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(proc);
  const lines: Array<Record<string, unknown>> = [];
  let rest = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const part of parts) lines.push(JSON.parse(part) as Record<string, unknown>);
    proc.stdout.emit('lines');
  });
  return { proc, lines };
}

test('every line arrives, in order, when the process ends without a flush', async () => {
  const { proc, lines } = child(`
    const log = createLogger('info');
    for (let i = 0; i < 3000; i++) log.info({ i }, 'line');
    process.exit(0);
  `);
  await once(proc, 'exit');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => l.i),
    Array.from({ length: 3000 }, (_, i) => i),
  );
});

// The child never ends by itself: if the warning waited for the batch, nothing would arrive and the
// test would fail on its timeout.
test('a warning goes out at once, after the lines before it', { timeout: 60_000 }, async () => {
  const { proc, lines } = child(`
    const log = createLogger('info');
    log.info({ i: 0 }, 'line');
    log.info({ i: 1 }, 'line');
    log.warn({ i: 2 }, 'warning');
    for (;;); // the event loop never turns again: no timer can write the batch
  `);
  const exited = once(proc, 'exit');
  while (lines.length < 3) await once(proc.stdout, 'lines');
  proc.kill('SIGKILL');
  await exited;
  assert.deepEqual(
    lines.map((l) => [l.i, l.msg]),
    [
      [0, 'line'],
      [1, 'line'],
      [2, 'warning'],
    ],
  );
});
