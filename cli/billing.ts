/**
 * What payments through Stripe did, for the operator (docs/operations.md "Taking payments with
 * Stripe"): by default the events that need a person, refused payments (another currency, an account
 * mismatch: not credited, to be refunded in the Stripe Dashboard) and shortfalls (a refund or lost
 * dispute larger than what was still available); with --all, every event applied.
 */
import { billingReport } from '../db/billing/store.ts';
import { UsageError, type Command } from './command.ts';

const DAY_MS = 86_400_000;

export const billingCommands: Command[] = [
  {
    words: ['billing', 'report'],
    summary:
      'Stripe events that need you: payments refused (not credited) and refunds or lost disputes larger than what was available; --all for every event',
    usage: 'billing report [--days N] [--all] [--limit N]',
    options: { days: { type: 'string' }, all: { type: 'boolean' }, limit: { type: 'string' } },
    run(ctx, values) {
      const days = values.days === undefined ? 30 : Number(values.days);
      if (!Number.isInteger(days) || days < 1 || days > 3650)
        throw new UsageError('--days is a whole number from 1 to 3650');
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
        throw new UsageError('--limit is a whole number from 1 to 10000');
      const rows = billingReport(ctx.openDb(), { all: values.all === true, since: ctx.now() - days * DAY_MS, limit });
      return {
        days,
        events: rows.map((r) => ({
          event: r.id,
          type: r.type,
          received_at: new Date(r.received_at).toISOString(),
          account: r.email,
          outcome: r.outcome,
          detail: r.detail,
        })),
      };
    },
    text: (r) => {
      const events = r.events as Array<{
        event: string;
        received_at: string;
        account: string | null;
        outcome: string;
        detail: string;
      }>;
      if (events.length === 0) return `nothing to report in the last ${String(r.days)} days`;
      return events
        .map((e) => `${e.received_at}  ${e.outcome.padEnd(12)} ${e.account ?? '-'}  ${e.detail}  (${e.event})`)
        .join('\n');
    },
  },
];
