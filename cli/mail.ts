/**
 * `mail list`: the operator's view of the mail outbox (issue 35; db/mail/outbox.ts). Newest first,
 * optionally of one status: `--status failed` lists the messages the SMTP server refused permanently
 * (5xx) or that ran out of attempts, with the server's last reply; `pending` what waits for the next
 * attempt. Addresses are shown (the operator's own users); tokens and bodies never are.
 */
import { listMail, type MailRow } from '../db/mail/outbox.ts';
import { UsageError, type Command } from './command.ts';

const STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const present = (m: MailRow) => ({
  id: m.public_id,
  to: m.recipient,
  kind: m.kind,
  status: m.status,
  attempts: m.attempts,
  created_at: iso(m.created_at),
  last_attempt_at: iso(m.last_attempt_at),
  next_attempt_at: iso(m.next_attempt_at),
  last_status: m.last_status,
  last_error: m.last_error,
});

export const mailCommands: Command[] = [
  {
    words: ['mail', 'list'],
    summary:
      'List the mail outbox, newest first: what was sent, what waits for a retry, what the SMTP server refused (--status failed)',
    usage: 'mail list [--status pending|succeeded|failed|cancelled] [--limit N]',
    options: { status: { type: 'string' }, limit: { type: 'string' } },
    run(ctx, values) {
      const status = values.status === undefined ? null : String(values.status);
      if (status !== null && !(STATUSES as readonly string[]).includes(status))
        throw new UsageError(`--status is one of ${STATUSES.join(', ')}`);
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit is 1 to 1000');
      const messages = listMail(ctx.openDb(), status as MailRow['status'] | null, limit).map(present);
      return { messages };
    },
    text: (r) => {
      const messages = r.messages as ReturnType<typeof present>[];
      if (messages.length === 0) return 'No messages.';
      return messages
        .map(
          (m) =>
            `${m.id}  ${m.status.padEnd(9)}  ${m.kind.padEnd(15)}  ${m.to}  attempts ${m.attempts}${m.last_status ? `  last ${m.last_status}` : ''}${m.last_error ? `  ${m.last_error}` : ''}${m.next_attempt_at ? `  next ${m.next_attempt_at}` : ''}`,
        )
        .join('\n');
    },
  },
];
