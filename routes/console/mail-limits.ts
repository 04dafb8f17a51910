/**
 * How often the console sends a message someone asks for (a verification link again, a password
 * reset): per address and per client address, on the shared GCRA limiter (lib/rate-limit.ts, the
 * same counters as the APIs': in memory, the cluster primary or Redis). An address gets one message a
 * minute and MAIL_PER_ADDRESS_DAY a day; a client address five a minute and MAIL_PER_CLIENT_DAY a
 * day. The limit is taken before the account is looked up, so a refusal says nothing about whether
 * the address has an account.
 */
import type { ApiRequest } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';

export const MAIL_PER_ADDRESS = { perMinute: 1, perDay: 5 };
export const MAIL_PER_CLIENT = { perMinute: 5, perDay: 30 };

/** null when a message may go; else the seconds to wait (Retry-After). */
export async function mailAllowance(ctx: AppContext, req: ApiRequest, email: string): Promise<number | null> {
  const client = await ctx.limiter.take(`console-mail-ip:${req.ipBucket}`, MAIL_PER_CLIENT, req.now);
  if (!client.allowed) return client.retryAfterSeconds;
  const address = await ctx.limiter.take(`console-mail:${email.toLowerCase()}`, MAIL_PER_ADDRESS, req.now);
  return address.allowed ? null : address.retryAfterSeconds;
}

export function waitWords(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}
