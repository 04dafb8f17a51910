/**
 * The console's page shell and the headers every console response carries: a Content-Security-Policy
 * with no inline script (the one script is /console/assets/console.js), no framing, no referrer, no
 * sniffing, and no caching (pages hold CSRF tokens, and one shows a new key).
 */
import { html, type Html } from '../../lib/html.ts';
import type { Reply } from '../../lib/http/types.ts';
import type { ConsoleState } from './state.ts';

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

export function page(state: ConsoleState, status: number, title: string, body: Html): Reply {
  const nav = state.account
    ? html`<nav aria-label="Account"><a href="/console/keys">Keys</a> <a href="/console/balance">Balance</a> <a href="/console/webhooks">Webhooks</a> <a href="/console/saved-searches">Saved searches</a> <a href="/console/worker">Tasks to do</a>
        <span>Signed in as <strong>${state.account.email}</strong></span>
        <form method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit">Sign out</button></form></nav>`
    : html`<nav aria-label="Account"><a href="/console/sign-in">Sign in</a> <a href="/console/sign-up">Create an account</a></nav>`;
  const doc = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · trio console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<header><a class="brand" href="/console">trio console</a>${nav}</header>
<main id="main">
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...SECURITY_HEADERS,
      ...(state.setCookies.length ? { 'set-cookie': state.setCookies } : {}),
    },
    body: doc.value,
  };
}

export function redirect(state: ConsoleState, location: string): Reply {
  return {
    status: 303,
    headers: { location, ...SECURITY_HEADERS, ...(state.setCookies.length ? { 'set-cookie': state.setCookies } : {}) },
  };
}

/** A message box; `role=alert` so screen readers announce errors. */
export const notice = (kind: 'error' | 'info', text: string | Html) =>
  html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;

/**
 * Runs a form's action; a refusal `statusOf` recognises (a rule's, a validation's) is shown as a notice
 * on the page `show` renders, with that status, instead of a dead end. Anything else is thrown on.
 */
export function orNotice(
  run: () => Reply,
  statusOf: (err: unknown) => number | null,
  show: (status: number, message: Html) => Reply,
): Reply {
  try {
    return run();
  } catch (err) {
    const status = statusOf(err);
    if (status === null) throw err;
    return show(status, notice('error', (err as Error).message));
  }
}
