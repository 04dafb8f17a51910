/**
 * The mail channel of the shared outbox deliverer (db/outbox/deliverer.ts: claiming, the retry
 * schedule, recording, the loop): renders each queued message (lib/mail/templates.ts) with the site's
 * address and hands it to Nodemailer, over SMTP (SMTP_URL) or to the log (SMTP_URL=log).
 *
 * - Retried: a refused connection, a timeout or a 4xx reply (the server's "try later") waits for the
 *   next attempt on the outbox's schedule; a 5xx reply (the server's "never") stops at once, and the
 *   operator sees it in the log, in /metrics (trio_mail_messages{status="failed"}) and `mail list`.
 * - Each attempt sends the same Message-ID (<msg_…@sender's domain>), so a message accepted twice
 *   after a crash between the server's 250 and our record shows once in a mail client.
 * - The alert and task messages carry a one-click unsubscribe (RFC 8058): List-Unsubscribe with the
 *   https address, and List-Unsubscribe-Post.
 */
import type { Logger } from 'pino';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import type { MailConfig, SmtpSettings } from '../../lib/mail/config.ts';
import { safeMailAddress } from '../../lib/mail/address.ts';
import { renderMail, type MailData, type MailKind } from '../../lib/mail/templates.ts';
import { OutboxDeliverer, type OutboxChannel, type Outcome } from '../outbox/deliverer.ts';
import { forgetToken, mailById } from './outbox.ts';

interface Due {
  id: number;
  attempts: number;
}

const statements = statementsFor((db) => ({
  due: db.prepare(`SELECT id, attempts FROM mail_messages WHERE status = 'pending' AND next_attempt_at <= @now
      AND (locked_until IS NULL OR locked_until <= @now) ORDER BY next_attempt_at, id LIMIT @limit`),
}));

function transporter(config: MailConfig): Transporter {
  const t = config.transport;
  if (t === 'log' || t === null)
    return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return nodemailer.createTransport(smtpOptions(t, config));
}

function smtpOptions(t: SmtpSettings, config: MailConfig) {
  const url = new URL(t.url);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(t.user ? { auth: { user: t.user, pass: t.password ?? '' } } : {}),
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
    ...(config.dkim ? { dkim: config.dkim } : {}),
  };
}

/** An SMTP failure as the outbox records it: 5xx permanent, anything else retried. */
function failure(err: unknown): Outcome {
  const e = err as { responseCode?: number; response?: string; message?: string; code?: string };
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  return {
    ok: false,
    code,
    error: (e.response ?? e.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300),
    retryAfterMs: null,
    permanent: code !== null && code >= 500 && code < 600,
  };
}

function mailChannel(db: Db, config: MailConfig, log: Pick<Logger, 'info'>, baseUrl: () => string): OutboxChannel<Due> {
  const transport = transporter(config);
  const domain = config.from.address.split('@')[1]!;
  return {
    table: 'mail_messages',
    noun: 'e-mail',
    logFinalFailures: true,
    due: (db, now, limit) => statements(db).due.all({ now, limit }) as Due[],
    async send(d) {
      const row = mailById(db, d.id)!;
      const to = safeMailAddress(row.recipient); // checked when queued; checked again before a header
      if (to === null)
        return { ok: false, code: null, error: 'not one plain address', retryAfterMs: null, permanent: true };
      const rendered = renderMail(row.kind, JSON.parse(row.data) as MailData[MailKind], row.locale, baseUrl());
      try {
        const info = (await transport.sendMail({
          from: { name: config.from.name ?? '', address: config.from.address },
          to: { name: '', address: to },
          envelope: { from: config.from.address, to: [to] },
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          messageId: `<${row.public_id}@${domain}>`,
          headers: {
            'Auto-Submitted': 'auto-generated',
            ...(rendered.unsubscribe
              ? {
                  'List-Unsubscribe': `<${rendered.unsubscribe}>`,
                  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
                }
              : {}),
          },
        })) as { response?: string; message?: Buffer };
        if (config.transport === 'log')
          log.info(
            { mail: row.public_id, kind: row.kind, to, message: info.message?.toString('utf8') },
            'e-mail (SMTP_URL=log)',
          );
        const code = Number(/^\d{3}/.exec(info.response ?? '')?.[0] ?? NaN);
        return { ok: true, code: Number.isFinite(code) ? code : null };
      } catch (err) {
        return failure(err);
      }
    },
    onSuccess: (db, d) => forgetToken(db, d.id),
    onFailure(db, d, _outcome, _at, final) {
      if (final) forgetToken(db, d.id);
    },
  };
}

/** The mail deliverer: the shared outbox deliverer over mail_messages. */
export class MailDeliverer extends OutboxDeliverer<Due> {
  constructor(deps: {
    db: Db;
    clock: () => number;
    log: Pick<Logger, 'warn' | 'error' | 'info'>;
    config: MailConfig;
    /** The site's address for the links (PUBLIC_URL, else where this server listens). */
    baseUrl: () => string;
  }) {
    super({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      settings: { timeoutMs: deps.config.timeoutMs * 3, concurrency: 4, pollMs: deps.config.pollMs },
      channel: mailChannel(deps.db, deps.config, deps.log, deps.baseUrl),
    });
  }
}
