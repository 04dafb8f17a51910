/**
 * /metrics for the mail outbox: messages per status (pending, succeeded, failed, cancelled), read
 * from the database when Prometheus scrapes, so they count messages queued by any process. An alert on
 * trio_mail_messages{status="failed"} rising tells the operator that the SMTP server refuses messages
 * (`mail list --status failed` says which and why).
 */
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../connection.ts';
import { mailCounts } from './outbox.ts';

export function registerMailMetrics(registry: Registry, db: Db, now: () => number): void {
  let cached: { at: number; counts: ReturnType<typeof mailCounts> } | null = null;
  new Gauge({
    name: 'trio_mail_messages',
    help: 'E-mail messages in the outbox per status (failed: refused permanently or out of attempts)',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      const t = now();
      if (!cached || t - cached.at > 1000) cached = { at: t, counts: mailCounts(db) };
      this.reset();
      for (const [status, n] of Object.entries(cached.counts)) this.set({ status }, n);
    },
  });
}
