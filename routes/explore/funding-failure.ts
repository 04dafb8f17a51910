/**
 * A funding page whose API call was refused: the page takes the API's status (400, 404, 429, …) and
 * shows the API's own message and code, the allowance left, and for a 429 when to try again (the
 * API's Retry-After, passed on as this page's Retry-After).
 */
import { html, type Html } from '../../lib/html.ts';
import type { Reply } from '../../lib/http/types.ts';
import type { ApiAnswer } from './api.ts';
import { quotaWords } from './funding-words.ts';
import { explorePage } from './layout.ts';

const TITLES: Record<number, string> = {
  400: 'The search was refused',
  404: 'Not found',
  429: 'Too many calls for now',
};

export function fundingFailure(answer: ApiAnswer, extra: Html = html``): Reply {
  const body = (answer.json ?? {}) as { error?: string; message?: string };
  const retry = answer.headers['retry-after'];
  const wait =
    retry === undefined
      ? html``
      : html`<p class="retry">Try again in ${retry} s${body.error === 'quota_exceeded' ? ' (the daily allowance renews at 00:00 UTC)' : ''}.</p>`;
  const reply = explorePage({
    status: answer.status,
    title: TITLES[answer.status] ?? 'That did not work',
    body: html`<p class="notice error" role="alert">${body.message ?? `The funding API answered ${answer.status}.`} <span class="muted">(API error <code>${body.error ?? answer.status}</code>, HTTP ${answer.status})</span></p>
${wait}
${quotaWords(answer)}
${extra}
<p><a href="/explore/funding">Start a new search</a></p>`,
  });
  return retry === undefined ? reply : { ...reply, headers: { ...reply.headers, 'retry-after': retry } };
}
