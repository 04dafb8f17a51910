/**
 * The mail jobs of the process that owns the database (app.ts startBackgroundJobs), with SMTP_URL
 * set: the mail deliverer (./deliverer.ts, the shared outbox mechanism) and the minute check that
 * queues each account's daily saved-search digest (db/funding/saved-search-digest.ts). Links use
 * PUBLIC_URL, else the address this server listens at (`listening`, known once the socket is bound).
 */
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import type { Config } from '../../lib/config.ts';
import { queueDigests } from '../funding/saved-search-digest.ts';
import { MailDeliverer } from './deliverer.ts';

const DIGEST_CHECK_MS = 60_000;

export interface MailJobs {
  deliverer: MailDeliverer;
  /** Queues the saved-search digests due now (run every minute; tests call it after moving the clock). */
  digests(): number;
}

export function startMail(
  ctx: { db: Db; clock: () => number; log: Logger; config: Config; outage: (err: unknown) => boolean },
  listening: () => string,
): { jobs: MailJobs; stop(): void } | null {
  const { db, clock, log, config, outage } = ctx;
  if (config.mail.transport === null) return null;
  const deliverer = new MailDeliverer({
    db,
    clock,
    log,
    config: config.mail,
    baseUrl: () => config.mail.publicUrl ?? listening(),
  });
  deliverer.start();
  const digests = () => queueDigests(db, clock(), config.mail.digestHour);
  const timer = setInterval(() => {
    try {
      digests();
    } catch (err) {
      if (!outage(err)) log.warn({ err }, 'saved-search digests not queued (database busy); next minute');
    }
  }, DIGEST_CHECK_MS);
  timer.unref();
  return {
    jobs: { deliverer, digests },
    stop: () => {
      clearInterval(timer);
      deliverer.stop();
    },
  };
}
