/**
 * A funding import run as operators run it, `node --import tsx main.ts funding import --source eu FILE
 * --json`, in its own process on the server's database file, while the server is under load. The
 * crash test SIGKILLs it at a random moment in some cycles. db/funding/import.ts parses first, then
 * writes the whole file, its calls and its funding_imports row (file_sha256), in one IMMEDIATE
 * transaction: after a kill, either all of the file is in or none of it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { killHard } from './server-process.ts';
import type { FundingFile } from './funding-file.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export interface ImportAttempt {
  file: FundingFile;
  /** The funding_imports.file_sha256 the file is logged under when it is in. */
  sha256: string;
  /** 'completed' (exit 0), 'killed' (our SIGKILL landed before it exited), or 'failed' (another exit). */
  outcome: 'completed' | 'killed' | 'failed';
  /** How long after spawning it exited or was killed. */
  ms: number;
  /** When it was spawned and when it was gone (epoch ms): while alive it may hold the write lock. */
  startedAt: number;
  endedAt: number;
  output: string;
}

export interface RunningImport {
  /** SIGKILLs the import if it is still running. */
  kill(): Promise<void>;
  done: Promise<ImportAttempt>;
}

export function startImport(databasePath: string, file: FundingFile): RunningImport {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'main.ts', 'funding', 'import', '--source', 'eu', file.path, '--json'],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_PATH: databasePath },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  let killedByUs = false;
  const done = new Promise<ImportAttempt>((resolve) => {
    child.once('exit', (code) =>
      resolve({
        file,
        sha256: createHash('sha256').update(readFileSync(file.path, 'utf8')).digest('hex'),
        outcome: code === 0 ? 'completed' : killedByUs ? 'killed' : 'failed',
        ms: Date.now() - started,
        startedAt: started,
        endedAt: Date.now(),
        output: output.slice(0, 2000),
      }),
    );
  });
  return {
    done,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      killedByUs = true;
      await killHard(child);
    },
  };
}
