/**
 * /metrics for the funding sync, per source: runs by outcome, time spent, the last run's duration,
 * failures in a row, the last success, the age of the data (since the last success) and the day the
 * newest record was published. Values are read when Prometheus
 * scrapes (a `collect` callback), from the database: they count syncs run by any process.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface SyncFigures {
  source: string;
  runs_ok: number;
  runs_failed: number;
  seconds_total: number;
  last_seconds: number | null;
  last_success_at: number | null;
  consecutive_failures: number;
  /** The day the newest served record was published (YYYY-MM-DD); null: none states one. */
  newest_published_on: string | null;
}

export function registerSyncMetrics(registry: Registry, read: () => SyncFigures[], now: () => number): void {
  let cached: { at: number; rows: SyncFigures[] } | null = null;
  // One read per scrape, shared by the seven metrics below.
  const rows = () => {
    const t = now();
    if (!cached || t - cached.at > 1000) cached = { at: t, rows: read() };
    return cached.rows;
  };
  new Counter({
    name: 'trio_funding_sync_runs_total',
    help: 'Funding sync runs per source and outcome (ok, failed)',
    labelNames: ['source', 'outcome'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const r of rows()) {
        this.inc({ source: r.source, outcome: 'ok' }, r.runs_ok);
        this.inc({ source: r.source, outcome: 'failed' }, r.runs_failed);
      }
    },
  });
  new Counter({
    name: 'trio_funding_sync_duration_seconds_total',
    help: 'Time spent syncing each source',
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const r of rows()) this.inc({ source: r.source }, r.seconds_total);
    },
  });
  const gauge = (name: string, help: string, value: (r: SyncFigures) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['source'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const r of rows()) {
          const v = value(r);
          if (v !== null) this.set({ source: r.source }, v);
        }
      },
    });
  gauge(
    'trio_funding_sync_last_duration_seconds',
    'Duration of the last finished sync of each source',
    (r) => r.last_seconds,
  );
  gauge(
    'trio_funding_sync_consecutive_failures',
    'Sync runs in a row that failed (0 after a success)',
    (r) => r.consecutive_failures,
  );
  gauge(
    'trio_funding_sync_last_success_timestamp_seconds',
    'When each source last synced without a failure (Unix seconds)',
    (r) => (r.last_success_at === null ? null : r.last_success_at / 1000),
  );
  gauge(
    'trio_funding_data_age_seconds',
    'Seconds since each source was last synced from its publisher without a failure (absent if never: a loaded file does not count)',
    (r) => (r.last_success_at === null ? null : Math.max(0, (now() - r.last_success_at) / 1000)),
  );
  gauge(
    'trio_funding_newest_published_timestamp_seconds',
    "The day each source's newest served record was published (Unix seconds of 00:00 UTC that day)",
    (r) => (r.newest_published_on === null ? null : Date.parse(`${r.newest_published_on}T00:00:00Z`) / 1000),
  );
}
