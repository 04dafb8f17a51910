/**
 * The server under test for the crash test: the real entry point, `node --import tsx main.ts serve`,
 * as a child process on a given database file, exactly as an operator starts it (PORT=0, DEMO=on,
 * LOG_LEVEL=info). It is only ever stopped with SIGKILL: no shutdown hook runs, no write-behind flush,
 * no WAL checkpoint.
 *
 * Its URL comes from the 'trio is serving' log line, which pino writes to stdout as JSON with `url`
 * (app.ts). Reading it from stdout means nothing in the server had to change for the test, unlike an
 * IPC side channel (tests/e2e/human/crash-server.ts), which runs a different entry than operators do.
 * stdout and stderr are drained for the child's whole life (a full pipe would stall it), and error
 * log lines are kept so that a failure can show what the server said.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const START_TIMEOUT_MS = 60_000;

export interface ServerProcess {
  url: string;
  pid: number;
  /** Error and fatal log lines (pino level ≥ 50) and anything written to stderr. */
  errors: string[];
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
}

/** `demo: false` starts with DEMO=off (a test that needs no demo data saves loading it). */
export async function startServerProcess(
  databasePath: string,
  options: { demo?: boolean } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: databasePath,
      DEMO: options.demo === false ? 'off' : 'on',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => errors.push(`stderr: ${line}`));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not report its URL within ${START_TIMEOUT_MS} ms: ${errors.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited before serving (code ${code}, signal ${signal}): ${errors.join('\n')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return; // main.ts also prints a line for people
      // Most lines are request logs: only those that can matter are parsed.
      if (!line.includes('"trio is serving"') && !/"level":(5|6)\d/.test(line)) return;
      const entry = JSON.parse(line) as { level: number; msg: string; url?: string };
      if (entry.level >= 50) errors.push(line);
      if (entry.msg === 'trio is serving' && entry.url) {
        clearTimeout(timer);
        resolve(entry.url);
      }
    });
  });
  url.catch(() => {}); // observed below; this only keeps a late exit from being an unhandled rejection
  try {
    return { url: await url, pid: child.pid!, errors, kill: () => killHard(child) };
  } catch (err) {
    await killHard(child);
    throw err;
  }
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
