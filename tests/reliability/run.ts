/**
 * `npm run test:reliability [-- --long]`: the reliability suite alone, one file at a time (the files
 * load the whole server and would only fight each other for two cores).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--long');
if (unknown.length) {
  console.error(`Unknown option ${unknown[0]}. Usage: npm run test:reliability [-- --long]`);
  process.exit(2);
}
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .sort()
  .map((f) => join(dir, f));
const env = { ...process.env, TRIO_RELIABILITY: args.includes('--long') ? 'long' : 'ci' };
const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
