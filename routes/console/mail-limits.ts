/**
 * How often the console sends a message someone asks for (a verification link again, a password
 * reset): per address and per client address, on the shared GCRA limiter (lib/rate-limit.ts, the
 * same counters as the APIs': in memory, the cluster primary or Redis). An address gets one message a
 * minute and MAIL_PER_ADDRESS_DAY a day; a client address five a minute and MAIL_PER_CLIENT_DAY a
 * day. The limit is taken before the account is looked up, so a refusal says nothing about whether
 * the address has an account.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { notice, page } from './layout.ts';
import type { ConsoleState } from './state.ts';

export const MAIL_PER_ADDRESS = { perMinute: 1, perDay: 5 };
export const MAIL_PER_CLIENT = { perMinute: 5, perDay: 30 };

/** null when a message may go; else the seconds to wait (Retry-After). */
export async function mailAllowance(ctx: AppContext, req: ApiRequest, email: string): Promise<number | null> {
  const client = await ctx.limiter.take(`console-mail-ip:${req.ipBucket}`, MAIL_PER_CLIENT, req.now);
  if (!client.allowed) return client.retryAfterSeconds;
  const address = await ctx.limiter.take(`console-mail:${email.toLowerCase()}`, MAIL_PER_ADDRESS, req.now);
  return address.allowed ? null : address.retryAfterSeconds;
}

function waitWords(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}

/** The 429 page when mailAllowance refuses: how long to wait, Retry-After, and the form to try again. */
export function tooManyLinks(state: ConsoleState, title: string, wait: number, again: Html | string): Reply {
  const reply = page(
    state,
    429,
    title,
    html`${notice('error', `Too many links were asked for this address or from your network. Try again in ${waitWords(wait)}.`)}${again}`,
  );
  return { ...reply, headers: { ...reply.headers, 'retry-after': String(wait) } };
}
