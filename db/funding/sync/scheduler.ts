/**
 * FUNDING_SYNC_EVERY: `serve` runs `funding sync` on a schedule, as a child process of its own
 * entry point (the same command an operator or a systemd timer runs). A child keeps the sync off
 * the request path entirely: its network waits, parsing and batch transactions happen in another
 * process, and WAL lets the server's reads go on beside its short write transactions. The database
 * lock in the child makes it one sync at a time across processes (another server, a timer, an
 * operator); a run that finds the lock taken does nothing.
 *
 * When: the first run as soon as the last one is older than the interval (a second after start at
 * the earliest), then one interval after each run ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';
import type { Db } from '../../connection.ts';
import { statementsFor } from '../../statements.ts';

export interface SchedulerOptions {
  everyMs: number;
  db: Db;
  clock: () => number;
  log: Logger;
  /** The program and arguments that run one sync; default this process's own entry point. */
  command?: { file: string; args: string[] };
}

export interface SyncScheduler {
  stop(): Promise<void>;
}

const FIRST_DELAY_MS = 1000;

function ownEntry(): { file: string; args: string[] } {
  return { file: process.execPath, args: [...process.execArgv, process.argv[1]!, 'funding', 'sync', '--json'] };
}

const statements = statementsFor((db) => ({
  lastStart: db.prepare('SELECT max(started_at) FROM funding_sync_runs').pluck(),
}));

export function startSyncScheduler(o: SchedulerOptions): SyncScheduler {
  const command = o.command ?? ownEntry();
  const lastStart = statements(o.db).lastStart;
  let timer: NodeJS.Timeout | null = null;
  let child: ChildProcess | null = null;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(runOnce, Math.max(FIRST_DELAY_MS, ms));
    timer.unref();
  };

  function runOnce() {
    timer = null;
    const started = o.clock();
    let stdout = '';
    let stderr = '';
    const c = spawn(command.file, command.args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    c.stdout!.on('data', (d) => (stdout += d));
    c.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
    let ended = false; // 'error' (could not start) may come with or without a 'close'
    c.on('error', (err) => {
      o.log.error({ err }, 'funding sync could not be started');
      if (!ended) {
        ended = true;
        child = null;
        schedule(o.everyMs);
      }
    });
    c.on('close', (code, signal) => {
      if (ended) return;
      ended = true;
      child = null;
      let summary: unknown = null;
      try {
        summary = JSON.parse(stdout.trim().split('\n').pop() ?? '');
      } catch {
        /* reported below with stderr */
      }
      const seconds = (o.clock() - started) / 1000;
      if (code === 0) o.log.info({ funding_sync: summary, seconds }, 'scheduled funding sync finished');
      else if (!stopped)
        o.log.warn(
          { funding_sync: summary, code, signal, seconds, stderr: stderr.trim() || undefined },
          'scheduled funding sync failed (a source failed, or the run did)',
        );
      schedule(o.everyMs);
    });
  }

  const last = lastStart.get() as number | null;
  schedule(last === null ? 0 : last + o.everyMs - o.clock());
  o.log.info({ every_ms: o.everyMs }, 'funding sync scheduled');

  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
      // The child is killed, not waited for: a killed sync resumes from its watermark next time.
      return new Promise<void>((resolve) => {
        c.once('close', () => resolve());
        c.kill('SIGTERM');
      });
    },
  };
}
