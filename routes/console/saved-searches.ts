/**
 * /console/saved-searches: the account's saved funding searches (issue 27), managed with the same
 * functions as the API (db/funding/saved-searches.ts, the query checked by routes/funding/saved-query.ts):
 * save one (a query string or the URL of a search page), open one (its query, its results, its feed
 * and the calls it was notified of), delete one. Notifications go to the account's live webhook
 * endpoints subscribed to funding.saved_search.matched (the Webhooks page), and, with mail configured
 * (issue 35), by e-mail at once or in a daily digest, as each search's alerts form says; the e-mail
 * language (English or Spanish) is the account's.
 */
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  MAX_SAVED_SEARCHES,
  ownSavedSearch,
  savedSearchMatches,
  setSavedSearchAlerts,
  type SavedSearchRow,
} from '../../db/funding/saved-searches.ts';
import { accountLocale, setAccountLocale } from '../../db/accounts.ts';
import { emailStatus } from '../../db/email-verification.ts';
import type { ConsoleState } from './state.ts';
import { DomainError } from '../../lib/domain-error.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { readSavedQuery } from '../funding/saved-query.ts';
import { readForm } from './form.ts';
import { notice, orNotice as noticeOn, page, redirect } from './layout.ts';
import { stateOf } from './state.ts';

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

const EMAIL_CHOICES = [
  ['off', 'No e-mail'],
  ['immediate', 'E-mail me each time new calls match'],
  ['daily', 'In my daily digest'],
] as const;

const describe = (row: SavedSearchRow) =>
  `${EMAIL_CHOICES.find(([v]) => v === row.email)![1]}${row.webhook ? ', and to my webhooks' : ' (no webhook)'}`;

function links(row: SavedSearchRow): Html {
  return html`<a href="/explore/funding?${row.query}">results</a> · <a href="/funding/v1/search.atom?${row.query}" type="application/atom+xml">Atom feed</a> · <a href="/funding/v1/search?${row.query}">JSON</a>`;
}

export function savedSearchRoutes(ctx: AppContext, secret: Buffer) {
  const mailOn = ctx.config.mail.transport !== null;

  /** With mail: whether the address is confirmed (alerts wait until it is), and the e-mail language. */
  const mailSection = (state: ConsoleState): Html => {
    if (!mailOn) return html``;
    const verified = emailStatus(ctx.db, state.account!.id) === 'verified';
    const locale = accountLocale(ctx.db, state.account!.id);
    return html`<section aria-labelledby="h-mail"><h2 id="h-mail">E-mail</h2>
${
  verified
    ? html`<p>Alerts go to <strong>${state.account!.email}</strong>. Each has a link to stop it, no sign-in needed.</p>`
    : html`<p data-unverified="yes">Confirm <strong>${state.account!.email}</strong> to receive alerts by e-mail:</p>
<form method="post" action="/console/verify" class="inline"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit">Send me a link</button></form>`
}
<form method="post" action="/console/mail-language" class="inline"><input type="hidden" name="csrf" value="${state.csrf}">
<label for="locale">Language of the alerts</label> <select id="locale" name="locale"><option value="en"${locale === 'en' ? html` selected` : ''}>English</option><option value="es"${locale === 'es' ? html` selected` : ''}>Español</option></select>
<button type="submit">Save</button></form></section>`;
  };

  const alertsForm = (state: ConsoleState, row: SavedSearchRow): Html =>
    mailOn
      ? html`<form method="post" action="/console/saved-searches/${row.public_id}/alerts" class="stack" aria-label="Alerts">
<input type="hidden" name="csrf" value="${state.csrf}">
<fieldset><legend>E-mail alerts</legend>${EMAIL_CHOICES.map(
          ([value, label]) =>
            html`<label><input type="radio" name="email" value="${value}"${row.email === value ? html` checked` : ''}> ${label}</label>`,
        )}</fieldset>
<label><input type="checkbox" name="webhook" value="on"${row.webhook ? html` checked` : ''}> Also send them to my webhook endpoints</label>
<button type="submit">Save alerts</button></form>`
      : html``;

  const listPage = (req: ApiRequest, status = 200, message?: Html): Reply => {
    const state = stateOf(req);
    // The explorer's "save it" link brings the search along (?query=…).
    const prefill = (new URL(req.url).searchParams.get('query') ?? '').slice(0, 2000);
    const rows = listSavedSearches(ctx.db, state.account!.id);
    return page(
      state,
      status,
      'Saved searches',
      html`${message ?? ''}
${mailSection(state)}
<p>A saved funding search is followed for you: every call new to the corpus that matches it is sent, once, to your live webhook endpoints that take <code>funding.saved_search.matched</code> (add one on the <a href="/console/webhooks">Webhooks</a> page, signed as Standard Webhooks specifies), and its Atom feed lists its newest calls for any feed reader. Your keys see the same searches at <code>/funding/v1/saved_searches</code>. At most ${MAX_SAVED_SEARCHES}.</p>
${
  rows.length === 0
    ? html`<p>No saved searches yet.</p>`
    : html`<ul class="saved-searches">${rows.map(
        (r) =>
          html`<li data-saved="${r.public_id}"><a href="/console/saved-searches/${r.public_id}"><strong>${r.name}</strong></a> <code>${r.query}</code><br>${links(r)}${mailOn ? html`<br><span data-alerts="${r.email}">${describe(r)}</span>` : ''}</li>`,
      )}</ul>`
}
<section aria-labelledby="h-new"><h2 id="h-new">Save a search</h2>
<form method="post" action="/console/saved-searches" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="name">Name</label><input id="name" name="name" required maxlength="100" placeholder="Hydrogen, open, for SMEs">
  <label for="query">Search (its query, or the address of a search page)</label>
  <input id="query" name="query" required maxlength="2000" value="${prefill}" placeholder="q=hidrógeno&amp;status=open&amp;applicant_type=sme">
  <p class="hint">Search on the <a href="/explore/funding">funding explorer</a>, then paste the page's address here.</p>
  <button type="submit">Save search</button>
</form></section>`,
    );
  };

  /** A refusal (a query the search refuses, the limit, another account's search) as a notice on the list. */
  const orNotice = (req: ApiRequest, run: () => Reply): Reply =>
    noticeOn(
      run,
      (err) =>
        err instanceof HttpError
          ? err.status
          : err instanceof DomainError
            ? err.code === 'not_found'
              ? 404
              : 409
            : null,
      (status, message) => listPage(req, status, message),
    );

  return {
    list(req: ApiRequest): Reply {
      if (!stateOf(req).account) return redirect(stateOf(req), '/console/sign-in');
      return listPage(req);
    },

    async create(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const form = await readForm(req, state, secret);
      const name = (form.get('name') ?? '').trim();
      return orNotice(req, () => {
        if (name === '' || name.length > 100)
          return listPage(req, 400, notice('error', 'Give it a name of 1 to 100 characters.'));
        const { query, params } = readSavedQuery(form.get('query') ?? '', req.now);
        const row = createSavedSearch(ctx.db, { accountId: state.account!.id, name, query, params, now: req.now });
        return redirect(state, `/console/saved-searches/${row.public_id}`);
      });
    },

    show(req: ApiRequest): Reply {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      return orNotice(req, () => {
        const row = ownSavedSearch(ctx.db, state.account!.id, String(req.params.id ?? '').slice(0, 40));
        const { total, recent } = savedSearchMatches(ctx.db, row);
        return page(
          state,
          200,
          row.name,
          html`<p><a href="/console/saved-searches">← Saved searches</a></p>
<dl><dt>Search</dt><dd><code>${row.query}</code></dd><dt>Follow it</dt><dd>${links(row)}</dd><dt>Saved</dt><dd>${when(row.created_at)}</dd>
<dt>New calls notified</dt><dd>${total}</dd>${mailOn ? html`<dt>Alerts</dt><dd data-alerts="${row.email}">${describe(row)}</dd>` : ''}</dl>
${alertsForm(state, row)}
${
  recent.length
    ? html`<ul class="notified">${recent.map((m) => html`<li>${when(m.matched_at)}: <a href="/explore/funding/calls/${encodeURIComponent(m.call_id)}"><code>${m.call_id}</code></a> (event <code>${m.event_id}</code>)</li>`)}</ul>`
    : html`<p>No new call has matched it since it was saved.</p>`
}
<form method="post" action="/console/saved-searches/${row.public_id}/delete"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit" class="danger">Delete this saved search</button></form>`,
        );
      });
    },

    async alerts(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const form = await readForm(req, state, secret);
      const id = String(req.params.id ?? '').slice(0, 40);
      return orNotice(req, () => {
        const email = form.get('email') ?? '';
        if (!mailOn) throw new HttpError(400, 'bad_request', 'This site sends no e-mail: alerts go to webhooks only.');
        if (email !== 'off' && email !== 'immediate' && email !== 'daily')
          throw new HttpError(400, 'bad_request', 'Choose no e-mail, each time, or the daily digest.');
        const webhook = form.get('webhook');
        if (webhook !== null && webhook !== 'on') throw new HttpError(400, 'bad_request', 'webhook is on or absent.');
        setSavedSearchAlerts(ctx.db, state.account!.id, id, email, webhook === 'on');
        return redirect(state, `/console/saved-searches/${id}`);
      });
    },

    async language(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      const form = await readForm(req, state, secret);
      return orNotice(req, () => {
        const locale = form.get('locale');
        if (locale !== 'en' && locale !== 'es')
          throw new HttpError(400, 'bad_request', 'Choose English (en) or Spanish (es).');
        setAccountLocale(ctx.db, state.account!.id, locale);
        return redirect(state, '/console/saved-searches');
      });
    },

    async remove(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      await readForm(req, state, secret);
      return orNotice(req, () => {
        deleteSavedSearch(ctx.db, state.account!.id, String(req.params.id ?? '').slice(0, 40));
        return redirect(state, '/console/saved-searches');
      });
    },
  };
}
