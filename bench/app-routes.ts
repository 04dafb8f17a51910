/**
 * The whole app's route table, as [method, pattern] pairs (routes/index.ts `routes`): the app started
 * in process on an empty database in a temporary directory (no socket), its routes built, the app
 * stopped. For bench/adapter-server.ts's 'trio-app', which puts a light route after all of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../app.ts';
import { readConfig } from '../lib/config.ts';
import { createMetrics } from '../lib/http/metrics.ts';
import { buildRoutes } from '../routes/index.ts';

export async function appRouteTable(): Promise<Array<[string, string]>> {
  const dir = mkdtempSync(join(tmpdir(), 'trio-bench-routes-'));
  const app = await startApp(
    readConfig({ PORT: '0', DATABASE_PATH: join(dir, 'trio.sqlite'), DEMO: 'off', LOG_LEVEL: 'silent' }),
    { listen: false },
  );
  try {
    return buildRoutes(app.ctx, createMetrics({ dependencies: [] })).routes();
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
