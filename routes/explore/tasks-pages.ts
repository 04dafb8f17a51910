/**
 * Pieces every tasks playground page shares: the invitation to sign in, the line saying who is
 * signed in, a refusal page carrying the human API's own status, code and message, and the note
 * naming the API calls a page shows.
 */
import { html, type Html } from '../../lib/html.ts';
import type { Reply } from '../../lib/http/types.ts';
import type { ApiAnswer } from './api.ts';
import { explorePage } from './layout.ts';
import { PLAYGROUND_KEY_NAME, type Player } from './tasks-session.ts';

/** Not signed in: what the playground is, and the way in and back. */
export function signInInvite(status = 200): Reply {
  return explorePage({
    status,
    title: 'Tasks playground',
    body: html`<p>The playground lets you quote and order tasks done by verified people, watch one move from state to state, and read its result and evidence, all in the <strong>sandbox</strong>: tasks run on a timer with synthetic evidence, no money moves and nobody is sent.</p>
<p class="notice" role="status">Sign in to use it: the playground orders with a sandbox key of your account.</p>
<ol>
<li><a href="/console/sign-in">Sign in at the console</a> (or <a href="/console/sign-up">create an account</a>).</li>
<li>Then come back: <a href="/explore/tasks">return to the tasks playground</a>.</li>
</ol>`,
  });
}

export function signedInLine(player: Player): Html {
  return html`<p class="muted signed-in">Signed in as <strong>${player.account.email}</strong>. The playground calls the human API with your sandbox key <q>${PLAYGROUND_KEY_NAME}</q> (made at your first order; see it, rotate or revoke it in the <a href="/console/keys#human">console</a>).</p>`;
}

/** The API calls a page shows, as links a client could make with its own key. */
export function apiCalls(calls: string[]): Html {
  return html`<p class="api muted">This page shows the answer${calls.length > 1 ? 's' : ''} to ${calls.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}.</p>`;
}

const TITLES: Record<number, string> = {
  400: 'The API refused this',
  401: 'The playground key does not work',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Not possible now',
  422: 'Not possible',
  429: 'Too many calls for now',
};

/** The API said no: this page takes its status and shows its code and message. */
export function apiFailure(answer: ApiAnswer, back: Html, extra: Html = html``): Reply {
  const error = ((answer.json ?? {}) as { error?: { code?: string; message?: string } }).error ?? {};
  const retry = answer.headers['retry-after'];
  const revoked =
    answer.status === 401
      ? html`<p>The playground uses your key <q>${PLAYGROUND_KEY_NAME}</q>. If you revoked it in the console, your next order here makes a new one.</p>`
      : html``;
  const reply = explorePage({
    status: answer.status,
    title: TITLES[answer.status] ?? 'That did not work',
    body: html`<p class="notice error" role="alert">${error.message ?? `The human API answered ${answer.status}.`} <span class="muted">(API error <code>${error.code ?? String(answer.status)}</code>, HTTP ${answer.status})</span></p>
${retry === undefined ? '' : html`<p>Try again in ${retry} s.</p>`}
${revoked}
${extra}
<p>${back}</p>`,
  });
  return retry === undefined ? reply : { ...reply, headers: { ...reply.headers, 'retry-after': retry } };
}
