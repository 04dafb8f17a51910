/**
 * Starts the real trio server (app.ts startApp, the same as `main.ts serve`) on an ephemeral port
 * with a real SQLite file in a temp directory, an injected clock and a captured log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { startApp, type RunningApp, type StartOptions } from '../../app.ts';
import { readConfig } from '../../lib/config.ts';
import type { ServiceLimits } from '../../lib/limits.ts';
import { copyDemoDatabase, copyImpactRegisterDatabase, type FundingCorpus } from './demo-template.ts';
import { inProcessRequest } from './in-process.ts';

/** A clock tests move by hand: time-dependent behaviour is tested without waiting. */
export class TestClock {
  constructor(public ms = Date.parse('2026-11-22T10:00:00Z')) {}
  now = () => this.ms;
  set(iso: string) {
    this.ms = Date.parse(iso);
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface TestServer {
  url: string;
  app: RunningApp;
  clock: TestClock;
  dir: string;
  databasePath: string;
  /** Every log line written so far. */
  logs: string[];
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  request(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: string | Uint8Array | FormData; redirect?: 'follow' | 'manual' },
  ): Promise<TestResponse>;
  /** Stops the server; the database file stays until `cleanup`. */
  stop(): Promise<void>;
  /** Starts again on the same database file (a restart), optionally with changed settings. */
  restart(env?: Record<string, string>): Promise<void>;
  cleanup(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  /** The body as sent (a photo, an export). */
  bytes: Buffer;
  /** The body decoded as fetch's text() decodes it. */
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface TestServerOptions {
  demo?: boolean;
  /** Instead of the demo, the impact register alone, as `demo --no-publish` leaves it (from a template too). */
  impactRegisterOnly?: boolean;
  /** The funding corpus of the demo: the real records (default) or the hand-made trap fixtures. */
  fundingCorpus?: FundingCorpus;
  clock?: TestClock;
  env?: Record<string, string>;
  /** Socket timeouts (tests of slow and idle clients, tests/reliability). */
  limits?: StartOptions['limits'];
  /** While a dependency is down, how often 'dependency still down' is logged (tests of outages). */
  outageLogEveryMs?: number;
  /** Rate limits other than the documents' (a test about something else lifts them). */
  rateLimits?: (documented: ServiceLimits) => ServiceLimits;
  /**
   * No socket: `request` goes through the app's dispatch (tests/helpers/in-process.ts), the same
   * pipeline without the connection, and `url` throws. For tests of what routes answer; keep the
   * socket where the connection is the point.
   */
  inProcess?: boolean;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'trio-test-'));
  const databasePath = join(dir, 'trio.sqlite');
  const clock = options.clock ?? new TestClock();
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  // The demo is copied from a template built once (tests/helpers/demo-template.ts); DEMO stays off so
  // that a test asking for an empty database gets one.
  if (options.impactRegisterOnly) copyImpactRegisterDatabase(databasePath, clock.now());
  else if (options.demo !== false) copyDemoDatabase(databasePath, clock.now(), options.fundingCorpus);
  const baseEnv = { PORT: '0', DATABASE_PATH: databasePath, DEMO: 'off', LOG_LEVEL: 'info', ...options.env };
  const configOf = (env: Record<string, string>) => {
    const read = readConfig(env);
    return options.rateLimits ? { ...read, rateLimits: options.rateLimits(read.rateLimits) } : read;
  };
  const config = configOf(baseEnv);
  // `limits` shortens socket timeouts for the tests of slow and idle clients (tests/reliability).
  const startOptions: StartOptions = {
    clock: clock.now,
    logDestination: sink,
    ...(options.inProcess ? { listen: false } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.outageLogEveryMs ? { outageLogEveryMs: options.outageLogEveryMs } : {}),
  };
  let app = await startApp(config, startOptions);

  const server: TestServer = {
    get url() {
      if (options.inProcess) throw new Error('an in-process test server has no URL: use server.request');
      return app.url;
    },
    get app() {
      return app;
    },
    clock,
    dir,
    databasePath,
    logs,
    get: (path, headers = {}) => server.request('GET', path, { headers }),
    async request(method, path, init = {}) {
      if (options.inProcess) return inProcessRequest(app.dispatch, method, path, init);
      const res = await fetch(app.url + path, {
        method,
        headers: init.headers ?? {},
        ...(init.body !== undefined ? { body: init.body } : {}),
        ...(init.redirect ? { redirect: init.redirect } : {}),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = new TextDecoder().decode(bytes);
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: tests read .text
      }
      return { status: res.status, headers: res.headers, bytes, text, json };
    },
    stop: () => app.stop(),
    async restart(env = {}) {
      await app.stop();
      app = await startApp(configOf({ ...baseEnv, ...env }), startOptions);
    },
    async cleanup() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
