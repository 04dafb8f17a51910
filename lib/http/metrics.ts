/**
 * Prometheus metrics (prom-client): request counts and latency per service and route pattern, the
 * state of each dependency and the requests refused unserved by cause (issue 28).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Dependency } from './dependency.ts';
import type { ApiRequest, RefusalCause } from './types.ts';

const CAUSES: readonly RefusalCause[] = ['redis', 'cluster_primary', 'database', 'database_busy', 'read_only'];

/** node's client error codes, as the metric's `reason`. */
const CLIENT_ERRORS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  ECONNRESET: 'connection_reset',
  other: 'other',
  malformed: 'malformed',
};

export interface MetricsOptions {
  /** On a READ_ONLY node, the age of its copy of the database (null: no heartbeat yet). */
  replicationLagMs?: () => number | null;
  /** The parts this process needs (the database, Redis or the cluster primary when it counts there). */
  dependencies?: readonly Dependency[];
}

export function createMetrics(options: MetricsOptions = {}) {
  const { replicationLagMs, dependencies = [] } = options;
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
  if (dependencies.length) {
    new Gauge({
      name: 'trio_dependency_up',
      help: 'Whether a part requests need answers (1) or is down (0): database, redis, cluster_primary (docs/operations.md, "When something fails")',
      labelNames: ['dependency'] as const,
      registers: [registry],
      aggregator: 'min', // across a cluster's workers: 0 when any of them finds it down
      collect() {
        for (const d of dependencies) this.set({ dependency: d.name }, d.up ? 1 : 0);
      },
    });
  }
  const refusals = new Counter({
    name: 'trio_requests_refused_total',
    help: 'Requests refused with 503 unserved (and not counted against the client), by cause: redis, cluster_primary, database, database_busy, read_only',
    labelNames: ['cause'] as const,
    registers: [registry],
  });
  for (const cause of CAUSES) refusals.inc({ cause }, 0); // every series from the start, for rate()
  const clientErrors = new Counter({
    name: 'trio_http_client_errors_total',
    help: 'Connections node answered or closed itself, before or instead of a request (never in the access log): request_timeout (headers or body too slow: 408), headers_too_large (431), malformed (400), connection_reset, other',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of Object.values(CLIENT_ERRORS)) clientErrors.inc({ reason }, 0);
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
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const series = requestSeries(requests, duration);
  return {
    registry,
    /** In a cluster worker: the whole cluster's figures, gathered by the primary (cli/cluster.ts). */
    cluster: undefined as (() => Promise<string>) | undefined,
    observe(req: ApiRequest, status: number, seconds: number) {
      // Route patterns only (never raw paths), so a scan of random URLs cannot explode the series.
      series(req.service ?? 'site', req.route ?? 'unmatched', req.originalMethod, status).add(seconds);
      if (req.refused) refusals.inc({ cause: req.refused.cause });
    },
    /** A client error node handled itself (lib/http/any-method.ts). */
    clientError(code: string) {
      clientErrors.inc({ reason: CLIENT_ERRORS[code] ?? (code.startsWith('HPE_') ? 'malformed' : 'other') });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** A series' entry in prom-client's own table (its `hashMap`), as its inc and observe keep it. */
interface CounterEntry {
  value: number;
}
interface HistogramEntry {
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}
type Table<E> = { hashMap: Record<string, E & { labels: object }> };

/**
 * The request counter and duration histogram, counted per request without prom-client's work per call
 * (a check of the labels, a hash of them and a closure per observation: 0.85 µs of every request,
 * BENCHMARKS.md "The cost of one request"). Each label set's entries are made once by prom-client's own
 * calls (an inc by 0, zero()), then updated in place as its inc and observe update them: the value; the
 * count, the sum and the first bucket whose bound is at least the value. Everything else (the text,
 * the cluster's aggregation) is prom-client's. tests/lib/http/metrics.test.ts holds /metrics to what
 * prom-client's own calls give for the same requests.
 */
function requestSeries(requests: Counter<string>, duration: Histogram<string>) {
  const bounds = DURATION_BUCKETS;
  const entryOf = <E>(table: Table<E>, labels: object): E => {
    for (const entry of Object.values(table.hashMap)) if (entry.labels === labels) return entry;
    throw new Error('prom-client keeps its series otherwise than this version did');
  };
  const durations = new Map<string, HistogramEntry>();
  const known = new Map<string, { add(seconds: number): void }>();
  return (service: string, route: string, method: string, status: number) => {
    const key = `${service}\u0000${route}\u0000${method}\u0000${status}`;
    let one = known.get(key);
    if (one === undefined) {
      const countLabels = { service, route, method, status: String(status) };
      requests.inc(countLabels, 0);
      const count = entryOf<CounterEntry>(requests as unknown as Table<CounterEntry>, countLabels);
      const timeKey = `${service}\u0000${route}`;
      let time = durations.get(timeKey);
      if (time === undefined) {
        const timeLabels = { service, route };
        duration.zero(timeLabels);
        durations.set(
          timeKey,
          (time = entryOf<HistogramEntry>(duration as unknown as Table<HistogramEntry>, timeLabels)),
        );
      }
      const t = time;
      one = {
        add(seconds: number) {
          count.value += 1;
          t.sum += seconds;
          t.count += 1;
          for (let i = 0; i < bounds.length; i++) {
            if (seconds <= bounds[i]!) {
              t.bucketValues[bounds[i]!]! += 1;
              break;
            }
          }
        },
      };
      known.set(key, one);
    }
    return one;
  };
}
