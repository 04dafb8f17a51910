/**
 * `serve` in a child process, as operators run it (tsx or the bundle): started with PORT=0, its URL
 * read from its JSON log line 'trio is serving', stopped with a signal. For the tests that need the
 * server in another process: backups under load, the bundle, upgrades.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Sends the signal (SIGTERM by default) and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The URL in the JSON log line 'trio is serving' (LOG_LEVEL info or lower), or in the plain line
 * `serve` prints on stdout whatever the log level ("trio is serving at URL (database …)").
 */
export function servingUrl(line: string): string | undefined {
  if (line.startsWith('{')) {
    const entry = JSON.parse(line) as { msg?: string; url?: string };
    return entry.msg === 'trio is serving' ? entry.url : undefined;
  }
  return /^trio is serving at (\S+) /.exec(line)?.[1];
}

/** Runs `node ...args` (e.g. ['--import', 'tsx', 'main.ts', 'serve']) and waits until it serves. */
export async function startServeProcess(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'trio is serving' line within 120 s:\n${output}`)), 120_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output += line + '\n';
      const found = servingUrl(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    void exited.then(
      ([code, signal]) => (
        clearTimeout(timer),
        reject(new Error(`serve exited (${code ?? signal}) before serving:\n${output}`))
      ),
    );
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const [code, sig] = await exited;
      return { code, signal: sig };
    },
  };
}
