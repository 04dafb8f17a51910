/**
 * trio's one entry point: `npx tsx main.ts <command>` (also `npm run cli -- <command>`).
 * `serve` starts the server; the other commands are for operators. Every command takes --help, and
 * --json to print one JSON object on stdout.
 */
import { runCli } from './cli/run.ts';

const code = await runCli(process.argv.slice(2));
if (code !== 0 || !process.argv.slice(2).includes('serve')) process.exitCode = code;
