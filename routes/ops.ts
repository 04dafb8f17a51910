/**
 * Operations endpoints (SPEC): /healthz (process up), /readyz (ready to serve: every part requests
 * need answers), /metrics, and the home page.
 */
import type { Db } from '../db/connection.ts';
import type { ApiRequest, Reply } from '../lib/http/types.ts';
import { jsonReply } from '../lib/http/types.ts';
import type { Metrics } from '../lib/http/metrics.ts';
import { databaseCause } from '../lib/http/unavailable.ts';
import type { AppContext } from './context.ts';
import { statementsFor } from '../db/statements.ts';

const NO_STORE = { 'cache-control': 'no-store' };

export const healthz = (): Reply => jsonReply(200, { status: 'ok' }, NO_STORE);

const statements = statementsFor((db) => ({
  ping: db.prepare('SELECT 1').pluck(),
}));

/**
 * Ready when requests would be served: 503 with the reason otherwise (issue 28), so a load balancer
 * stops sending traffic that would only be refused. `dependencies` gives each part's state as the
 * requests and jobs found it (lib/http/dependency.ts: no probe on the request path): the database
 * (one read here as well; a write that failed since, with the file full or read-only, keeps it down
 * until a probe write succeeds), Redis or the cluster primary when the counters live there.
 *
 * On a READ_ONLY node (`replica`), also the age of its copy from the primary's heartbeat
 * (db/heartbeat.ts): not ready when older than READ_ONLY_MAX_LAG_MS or when no heartbeat was ever
 * seen, so a load balancer stops sending reads to a copy that stopped following.
 */
export function readyz(
  db: Db,
  replica: AppContext['replica'],
  dependencies: AppContext['dependencies'],
  clock: () => number = Date.now,
) {
  const ping = statements(db).ping;
  return (): Reply => {
    try {
      ping.get();
    } catch (err) {
      dependencies.database.fail(databaseCause(err));
    }
    const states = Object.fromEntries(dependencies.all.map((d) => [d.name, d.state()]));
    const down = dependencies.all.find((d) => !d.up);
    let reason = down ? `${down.name} is down: ${down.state().cause}` : null;
    let body: Record<string, unknown> = {};
    if (replica && dependencies.database.up) {
      const { lagMs, writtenAt, writer } = replica.lag(clock());
      body = {
        role: 'read-only',
        replication_lag_ms: lagMs,
        max_lag_ms: replica.maxLagMs,
        heartbeat_at: writtenAt === null ? null : new Date(writtenAt).toISOString(),
        primary: writer,
      };
      if (lagMs === null)
        reason ??= 'no heartbeat from the primary in this copy (set REPLICA_HEARTBEAT_MS on the primary)';
      else if (lagMs > replica.maxLagMs)
        reason ??= `this copy is ${lagMs} ms behind the primary (more than READ_ONLY_MAX_LAG_MS)`;
    }
    return reason === null
      ? jsonReply(200, { status: 'ready', ...body, dependencies: states }, NO_STORE)
      : jsonReply(503, { status: 'unavailable', reason, ...body, dependencies: states }, NO_STORE);
  };
}

/**
 * In a cluster worker, the figures of every worker summed by the primary, not of the one that
 * answers; this worker's own if the primary cannot gather them (a worker dying mid-scrape).
 */
export function metricsEndpoint(metrics: Metrics) {
  return async (): Promise<Reply> => ({
    status: 200,
    headers: { 'content-type': metrics.registry.contentType },
    body: await (metrics.cluster
      ? metrics.cluster().catch(() => metrics.registry.metrics())
      : metrics.registry.metrics()),
  });
}

const HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>trio</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5">
<h1>trio</h1>
<p>Three public APIs from one SQLite file.</p>
<ul>
<li><a href="/impact/v1/">Impact attribution</a>: deaths and injuries attributed to the supply chains of products, materials and spending, with intervals (<a href="/impact/v1/openapi.json">contract</a>)</li>
<li><a href="/funding/v1/search?status=open">Funding corpus</a>: search over funding calls (<a href="/funding/v1/openapi.json">contract</a>)</li>
<li><a href="/human/v1/capabilities">Human tasks</a>: quote, order and collect tasks done by verified people (<a href="/human/v1/openapi.json">contract</a>)</li>
<li><a href="/console">Console</a>: sign in, and get API keys for every service</li>
</ul>
<p>Operations: <a href="/healthz">/healthz</a>, <a href="/readyz">/readyz</a>, <a href="/metrics">/metrics</a>.</p>
</body></html>
`;

export const home = (req: ApiRequest): Reply => ({
  status: 200,
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'self'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
  },
  body: req.path === '/' ? HOME : '',
});
