/**
 * /console/webhooks: the account's webhook endpoints, sandbox and live (issue 26), managed with the
 * same functions as the API (db/webhooks/endpoints.ts): register one (its secret is shown once), send
 * a test event, see the latest deliveries and what the receiver answered, disable or enable it, rotate
 * its secret, delete it. Every service's events reach these endpoints (lib/webhooks/event-types.ts).
 */
import * as v from 'valibot';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  ownEndpoint,
  rotateSecret,
  updateEndpoint,
  type EndpointJson,
  type WebhookEnvironment,
  type WebhookOwner,
} from '../../db/webhooks/endpoints.ts';
import { recentDeliveries, sendTestEvent } from '../../db/webhooks/events.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { isHumanError } from '../../lib/human/errors.ts';
import { EVENT_TYPES } from '../../lib/webhooks/event-types.ts';
import type { AppContext } from '../context.ts';
import { readForm } from './form.ts';
import { notice, orNotice as noticeOn, page, redirect } from './layout.ts';
import { stateOf, type ConsoleState } from './state.ts';

const ENVIRONMENTS: Array<[WebhookEnvironment, string]> = [
  ['test', 'Sandbox (events of ho_test_ keys)'],
  ['live', 'Live (events of ho_live_ keys, and of every other service)'],
];
const ACTIONS = ['test', 'enable', 'disable', 'rotate', 'delete'] as const;
const when = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';

const NewEndpoint = v.object({
  url: v.pipe(v.string(), v.trim(), v.nonEmpty('Give the URL to send events to.')),
  environment: v.picklist(['test', 'live'], 'Choose sandbox or live.'),
  event_types: v.optional(v.pipe(v.string(), v.trim())),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'A description has at most 200 characters.'))),
});

function endpointCard(ctx: AppContext, state: ConsoleState, owner: WebhookOwner, e: EndpointJson): Html {
  const row = ownEndpoint(ctx.db, owner, e.id);
  const deliveries = recentDeliveries(ctx.db, row.id, 10);
  const button = (action: (typeof ACTIONS)[number], label: string, cls = '') =>
    html`<form method="post" action="/console/webhooks/${e.id}/${action}" class="inline"><input type="hidden" name="csrf" value="${state.csrf}"><button type="submit" ${cls ? html`class="${cls}"` : ''}>${label}</button></form>`;
  return html`<article class="endpoint" data-endpoint="${e.id}">
<h3><code>${e.url}</code></h3>
<p>${e.description ?? ''} Events: <code>${e.event_types.join(' ')}</code>. Secret <code>${e.secret_hint}</code>${e.secret_rotating_until ? ` (the old one also signs until ${e.secret_rotating_until})` : ''}.
${e.enabled ? html`<strong>Enabled</strong>.` : html`<strong>Disabled</strong>${e.disabled_reason === 'gone' ? ' (the receiver answered 410 Gone)' : ''}.`}</p>
<p>${button('test', 'Send a test event')} ${e.enabled ? button('disable', 'Disable') : button('enable', 'Enable')} ${button('rotate', 'Rotate secret')} ${button('delete', 'Delete', 'danger')}</p>
${
  deliveries.length === 0
    ? html`<p>No deliveries yet.</p>`
    : html`<div class="table"><table><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Next attempt</th></tr></thead>
<tbody>${deliveries.map(
        (
          d,
        ) => html`<tr><td data-label="Event"><code>${d.type}</code> <code>${d.event}</code>${d.trigger === 'event' ? '' : ` (${d.trigger})`}</td>
<td data-label="Status" data-status="${d.status}">${d.status}</td><td data-label="Attempts">${d.attempts}</td>
<td data-label="Last answer">${d.last_attempt_at === null ? '—' : html`${when(d.last_attempt_at)}: ${d.last_status === null ? (d.last_error ?? 'no answer') : `HTTP ${d.last_status}`}`}</td>
<td data-label="Next attempt">${when(d.next_attempt_at)}</td></tr>`,
      )}</tbody></table></div>`
}
</article>`;
}

export function webhookRoutes(ctx: AppContext, secret: Buffer) {
  const policy = { allowPrivate: ctx.config.webhooks.allowPrivate };

  const listPage = (req: ApiRequest, status = 200, message?: Html): Reply => {
    const state = stateOf(req);
    const account = state.account!;
    return page(
      state,
      status,
      'Webhooks',
      html`${message ?? ''}
<p>trio POSTs every change of your tasks, and every new funding call matching one of your <a href="/console/saved-searches">saved searches</a> (live endpoints), to your endpoints as an event, signed as <a href="https://www.standardwebhooks.com">Standard Webhooks</a> specifies (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>); a receiver that does not answer 2xx is tried again for a day. The README shows a receiver checking the signature.</p>
${ENVIRONMENTS.map(([env, title]) => {
  const owner = { accountId: account.id, environment: env };
  const endpoints = listEndpoints(ctx.db, owner);
  return html`<section aria-labelledby="h-${env}"><h2 id="h-${env}">${title}</h2>
${endpoints.length ? endpoints.map((e) => endpointCard(ctx, state, owner, e)) : html`<p>No endpoints.</p>`}</section>`;
})}
<section aria-labelledby="h-new"><h2 id="h-new">Add an endpoint</h2>
<form method="post" action="/console/webhooks" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="url">URL</label><input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.org/hooks/trio">
  <label for="environment">Environment</label>
  <select id="environment" name="environment">${ENVIRONMENTS.map(([env, title]) => html`<option value="${env}">${title}</option>`)}</select>
  <label for="event_types">Events (space-separated; empty for all)</label>
  <input id="event_types" name="event_types" maxlength="400" placeholder="human.task.delivered human.task.expired">
  <p class="hint">Types: ${Object.keys(EVENT_TYPES).map((t) => html`<code>${t}</code> `)}; or a namespace such as <code>human.task.*</code>.</p>
  <label for="description">Description (optional)</label><input id="description" name="description" maxlength="200">
  <button type="submit">Add endpoint</button>
</form></section>`,
    );
  };

  /** A refusal of the rules as a notice on the list, instead of a dead end. */
  const orNotice = (req: ApiRequest, run: () => Reply): Reply =>
    noticeOn(
      run,
      (err) => (isHumanError(err) ? (err.code === 'not_found' ? 404 : 400) : null),
      (status, message) => listPage(req, status, message),
    );

  const secretShown = (req: ApiRequest, url: string, secretValue: string) =>
    listPage(
      req,
      200,
      notice(
        'info',
        html`The signing secret of <code>${url}</code>, shown this once (store it with your receiver): <code class="secret" data-secret>${secretValue}</code>`,
      ),
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
      const input = v.safeParse(NewEndpoint, Object.fromEntries(form));
      if (!input.success) return listPage(req, 400, notice('error', input.issues[0].message));
      const { url, environment, event_types, description } = input.output;
      const types = (event_types ?? '').split(/[\s,]+/).filter(Boolean);
      return orNotice(req, () => {
        const made = createEndpoint(
          ctx.db,
          { accountId: state.account!.id, environment },
          { url, ...(types.length ? { event_types: types } : {}), ...(description ? { description } : {}) },
          req.now,
          policy,
        );
        return secretShown(req, made.endpoint.url, made.secret);
      });
    },

    async act(req: ApiRequest): Promise<Reply> {
      const state = stateOf(req);
      if (!state.account) return redirect(state, '/console/sign-in');
      await readForm(req, state, secret);
      const id = String(req.params.id ?? '');
      const action = String(req.params.action ?? '') as (typeof ACTIONS)[number];
      if (!ACTIONS.includes(action)) throw new HttpError(404, 'not_found', 'There is no such page.');
      // The endpoint's environment is its own: find which of the account's it is.
      const owner = ENVIRONMENTS.map(([environment]) => ({ accountId: state.account!.id, environment })).find((o) =>
        listEndpoints(ctx.db, o).some((e) => e.id === id),
      );
      if (!owner) return listPage(req, 404, notice('error', `No webhook endpoint ${id.slice(0, 40)} of yours.`));
      return orNotice(req, () => {
        if (action === 'rotate') {
          const rotated = rotateSecret(ctx.db, owner, id, req.now);
          return secretShown(req, rotated.endpoint.url, rotated.secret);
        }
        if (action === 'test') {
          const event = sendTestEvent(ctx.db, owner, id, req.now);
          return listPage(
            req,
            200,
            notice(
              'info',
              html`Test event <code>${event.id}</code> queued: reload to see what your endpoint answered.`,
            ),
          );
        }
        if (action === 'delete') deleteEndpoint(ctx.db, owner, id, req.now);
        else updateEndpoint(ctx.db, owner, id, { enabled: action === 'enable' }, req.now, policy);
        return redirect(state, '/console/webhooks');
      });
    },
  };
}
