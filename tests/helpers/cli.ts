/**
 * The CLI as a test runs it: `node --import tsx main.ts …` in a child process, on a database of its
 * own in a temporary directory that is removed after the test file. `cli` never throws: a failed
 * command comes back with its exit code and output.
 *
 * `cliInProcess` runs the same command line through the same dispatch main.ts calls (cli/run.ts's
 * runCli: option parsing, --help, the command, its printing and exit code) with captured output and
 * the same environment, without a process: a spawn costs a second or more of CPU (tsx's start-up and
 * the CLI's ~250 modules; twice that under c8), which for dozens of command lines per file was most of
 * the CLI tests' time. Each test file keeps real spawns of main.ts for the entry itself (the exit code
 * reaching the process, the overview, stdout and stderr as a shell sees them).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = join(import.meta.dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line through main.ts's dispatch in this process, with `env` and captured output. */
export async function runInProcess(env: NodeJS.ProcessEnv, args: string[]): Promise<CliResult> {
  const { runCli } = await import('../../cli/run.ts');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

export function cliOnTempDatabase(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const databasePath = join(dir, 'trio.sqlite');
  const env = { ...process.env, DATABASE_PATH: databasePath, LOG_LEVEL: 'silent' };
  after(() => rmSync(dir, { recursive: true, force: true }));
  async function cli(...args: string[]): Promise<CliResult> {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'main.ts', ...args], {
        env,
        cwd: ROOT,
        maxBuffer: 1 << 24,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as CliResult;
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }
  const cliInProcess = (...args: string[]) => runInProcess(env, args);
  return { cli, cliInProcess, databasePath };
}
