/** Prometheus metrics (prom-client): request counts and latency per service and route pattern. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ApiRequest } from './types.ts';

/** `replicationLagMs`: on a READ_ONLY node, the age of its copy of the database (null: no heartbeat yet). */
export function createMetrics(replicationLagMs?: () => number | null) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (replicationLagMs) {
    new Gauge({
      name: 'trio_replication_lag_seconds',
      help: 'Age of this read-only copy of the database: now minus the last heartbeat the primary wrote (-1: none seen yet)',
      registers: [registry],
      aggregator: 'max', // across a cluster's workers (they read the same copy)
      collect() {
        const lag = replicationLagMs();
        this.set(lag === null ? -1 : lag / 1000);
      },
    });
  }
  const labelNames = ['service', 'route', 'method', 'status'] as const;
  const requests = new Counter({
    name: 'trio_http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'trio_http_request_duration_seconds',
    help: 'Time from arrival to the last byte written',
    labelNames: ['service', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    /** In a cluster worker: the whole cluster's figures, gathered by the primary (cli/cluster.ts). */
    cluster: undefined as (() => Promise<string>) | undefined,
    observe(req: ApiRequest, status: number, seconds: number) {
      // Route patterns only (never raw paths), so a scan of random URLs cannot explode the series.
      const route = req.route ?? 'unmatched';
      const service = req.service ?? 'site';
      requests.inc({ service, route, method: req.originalMethod, status: String(status) });
      duration.observe({ service, route }, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
