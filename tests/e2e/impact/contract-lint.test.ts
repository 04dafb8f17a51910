/**
 * Issue 14: the served contract passes `redocly lint` with the recommended rules, no error and no
 * warning. The document is fetched from the running server and linted from a file, offline (no
 * telemetry, no remote configuration: the recommended ruleset ships with the CLI).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { startImpactServer, type ImpactServer } from './harness.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

let server: ImpactServer;
before(async () => {
  server = await startImpactServer({ inProcess: true });
});
after(() => server.cleanup());

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer?: string }>;
}

test('redocly lint (recommended) finds no error and no warning in /impact/v1/openapi.json', async () => {
  const res = await server.api('/openapi.json');
  assert.equal(res.status, 200);
  const file = join(server.dir, 'impact-openapi.json');
  writeFileSync(file, res.text);
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_PROXY: '*',
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
  };
  const out = await run(process.execPath, [CLI, 'lint', '--extends=recommended', '--format=json', file], {
    cwd: server.dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
  const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: Problem[] };
  const listed = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
  assert.deepEqual(listed, [], 'no problem');
  assert.deepEqual([report.totals.errors, report.totals.warnings], [0, 0]);
});
