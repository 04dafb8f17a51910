/**
 * The webhook deliverer's settings, from the environment (.env.example, docs/operations.md):
 *
 * - WEBHOOK_TIMEOUT_MS (default 15000, 1000–60000): one attempt's whole exchange; a slower receiver
 *   counts as failed and is retried (Standard Webhooks advises 15 to 30 s).
 * - WEBHOOK_CONCURRENCY (default 8, 1–64): attempts in flight at once, so one slow receiver does not
 *   hold up the others.
 * - WEBHOOK_POLL_MS (default 1000, 20–60000): how often the deliverer looks for due deliveries (it is
 *   also woken as soon as a delivery it sent finishes, so the next event of the same task goes at once).
 * - WEBHOOK_ALLOW_PRIVATE (on, off; default on while HOST is a loopback address, off otherwise): whether
 *   endpoints may be loopback or private addresses. Off refuses them at registration and at every
 *   attempt (after the DNS lookup), so an account cannot make the server call into its own network.
 */
import { integer } from '../env-integer.ts';

export interface WebhookConfig {
  timeoutMs: number;
  concurrency: number;
  pollMs: number;
  allowPrivate: boolean;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'];

export function readWebhookConfig(env: Record<string, string | undefined>, host: string): WebhookConfig {
  const setting = (env.WEBHOOK_ALLOW_PRIVATE ?? '').toLowerCase();
  if (!['', 'on', 'off', '1', '0', 'true', 'false', 'yes', 'no'].includes(setting))
    throw new Error('WEBHOOK_ALLOW_PRIVATE must be on or off');
  return {
    timeoutMs: integer(env.WEBHOOK_TIMEOUT_MS, 15_000, 'WEBHOOK_TIMEOUT_MS', 1000, 60_000),
    concurrency: integer(env.WEBHOOK_CONCURRENCY, 8, 'WEBHOOK_CONCURRENCY', 1, 64),
    pollMs: integer(env.WEBHOOK_POLL_MS, 1000, 'WEBHOOK_POLL_MS', 20, 60_000),
    allowPrivate: setting === '' ? LOOPBACK_HOSTS.includes(host) : ['on', '1', 'true', 'yes'].includes(setting),
  };
}
