/**
 * /console/keys: an account's keys for each service, listed without their secrets; create (the key
 * is shown once, on the page that answers the form, never again), rotate (same name and scopes; the
 * old key works until revoked or until the chosen grace period ends), revoke (refused from the next
 * request). Another account's key id is 404, as if it did not exist.
 */
import * as v from 'valibot';
import { createKey, getKey, listKeys, revokeKey, rotateKey, type KeyRow, type Service } from '../../db/accounts.ts';
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { fields, readForm } from './form.ts';
import { notice, page, redirect } from './layout.ts';
import { stateOf, type ConsoleState } from './state.ts';

const SERVICES: Array<{ code: Service; name: string; about: string }> = [
  {
    code: 'funding',
    name: 'Funding corpus',
    about: 'Send it as X-API-Key to /funding/v1. Your tier is decided on every request from your subscription.',
  },
  {
    code: 'impact',
    name: 'Impact attribution',
    about:
      'Optional: a key raises the daily allowance of /impact/v1 from 100 per address to 10,000 per key. Send it as Authorization: Bearer or X-API-Key.',
  },
  {
    code: 'human',
    name: 'Human tasks',
    about:
      'Test keys (ho_test_) run the sandbox; live keys (ho_live_) spend your prepaid balance. Send it as Authorization: Bearer or X-Api-Key, to /human/v1 and its MCP server.',
  },
];

const GRACE: Record<string, { label: string; ms: number | null }> = {
  keep: { label: 'until I revoke it', ms: null },
  now: { label: 'stop now', ms: 0 },
  '1h': { label: 'for 1 hour', ms: 3_600_000 },
  '24h': { label: 'for 24 hours', ms: 86_400_000 },
  '7d': { label: 'for 7 days', ms: 7 * 86_400_000 },
};

const createSchema = v.object({
  service: v.picklist(['funding', 'impact', 'human'], 'Choose a service.'),
  name: v.pipe(
    v.string('Give the key a name.'),
    v.trim(),
    v.nonEmpty('Give the key a name.'),
    v.maxLength(80, 'A key name has at most 80 characters.'),
  ),
  environment: v.optional(v.picklist(['test', 'live'], 'The environment is test or live.')),
});
const rotateSchema = v.object({
  grace: v.optional(
    v.picklist(Object.keys(GRACE) as [string, ...string[]], 'Choose how long the old key keeps working.'),
  ),
});

const when = (ms: number | null) =>
  ms === null ? '—' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

function keyState(key: KeyRow, now: number): string {
  if (key.revoked_at !== null && key.revoked_at <= now) return `revoked ${when(key.revoked_at)}`;
  if (key.expires_at !== null && key.expires_at <= now) return `expired ${when(key.expires_at)}`;
  if (key.expires_at !== null) return `active until ${when(key.expires_at)}`;
  return 'active';
}

function keyTable(state: ConsoleState, keys: KeyRow[], now: number): Html {
  if (keys.length === 0) return html`<p>No keys yet.</p>`;
  return html`<div class="table"><table>
<thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Environment</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
<tbody>${keys.map((k) => {
    const live = keyState(k, now).startsWith('active');
    return html`<tr>
<td data-label="Name">${k.name}</td><td data-label="Key"><code>${k.display_prefix}…</code></td>
<td data-label="Environment">${k.environment ?? '—'}</td><td data-label="Scopes">${k.scopes || '—'}</td>
<td data-label="Created">${when(k.created_at)}</td><td data-label="Last used">${when(k.last_used_at)}</td><td data-label="State">${keyState(k, now)}</td>
<td data-label="Actions">${
      live
        ? html`
<form method="post" action="/console/keys/${k.id}/rotate" class="inline">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <label for="grace-${k.id}">Old key works</label>
  <select id="grace-${k.id}" name="grace">${Object.entries(GRACE).map(([value, g]) => html`<option value="${value}">${g.label}</option>`)}</select>
  <button type="submit">Rotate</button>
</form>
<form method="post" action="/console/keys/${k.id}/revoke" class="inline">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <button type="submit" class="danger" aria-label="Revoke ${k.name} (${k.display_prefix})">Revoke</button>
</form>`
        : ''
    }</td></tr>`;
  })}</tbody></table></div>`;
}

function createForm(state: ConsoleState, service: Service): Html {
  return html`<details><summary>New ${service} key</summary>
<form method="post" action="/console/keys" class="stack">
  <input type="hidden" name="csrf" value="${state.csrf}">
  <input type="hidden" name="service" value="${service}">
  <label for="name-${service}">Name</label>
  <input id="name-${service}" name="name" required maxlength="80" placeholder="laptop, CI, agent…">
  ${
    service === 'human'
      ? html`
  <fieldset><legend>Environment</legend>
    <label><input type="radio" name="environment" value="test" checked> test (sandbox, no money moves)</label>
    <label><input type="radio" name="environment" value="live"> live (spends your balance)</label>
  </fieldset>
  <fieldset><legend>Scopes</legend>
    <label><input type="checkbox" name="scopes" value="tasks:read" checked> tasks:read (quote, list, collect)</label>
    <label><input type="checkbox" name="scopes" value="tasks:write" checked> tasks:write (order, cancel, dispute)</label>
  </fieldset>`
      : ''
  }
  <button type="submit">Create key</button>
</form></details>`;
}

function shownOnce(state: ConsoleState, key: string, row: KeyRow, extra: string): Reply {
  return page(
    state,
    201,
    'Your new key',
    html`
${notice('info', 'Copy this key now. It is shown this once: only a hash of it is kept, so it cannot be shown again.')}
<p><label for="new-key">${row.name} (${row.service}${row.environment ? `, ${row.environment}` : ''})</label></p>
<p class="key"><input id="new-key" readonly value="${key}" size="70"> <button type="button" data-copy="new-key" hidden>Copy</button></p>
${extra ? html`<p>${extra}</p>` : ''}
<p><a href="/console/keys">Back to your keys</a></p>`,
  );
}

export function keyRoutes(ctx: AppContext, secret: Buffer) {
  const signedIn = (req: ApiRequest) => {
    const state = stateOf(req);
    return state.account ? { state, account: state.account } : null;
  };
  const ownKey = (req: ApiRequest, accountId: number): KeyRow => {
    const id = Number(req.params.id);
    const key = Number.isSafeInteger(id) ? getKey(ctx.db, id) : undefined;
    if (!key || key.account_id !== accountId) throw new HttpError(404, 'not_found', 'No such key.');
    return key;
  };

  return {
    list(req: ApiRequest): Reply {
      const who = signedIn(req);
      if (!who) return redirect(stateOf(req), '/console/sign-in');
      const keys = listKeys(ctx.db, { accountId: who.account.id });
      const tier = ctx.activePlan(who.account.id, req.now) === 'pro' ? 'pro' : 'basic';
      const limits = ctx.config.rateLimits.funding[tier];
      return page(
        who.state,
        200,
        'Your API keys',
        html`${SERVICES.map(
          (s) => html`
<section aria-labelledby="h-${s.code}" id="${s.code}">
<h2 id="h-${s.code}">${s.name}</h2>
<p>${s.about}</p>
${s.code === 'funding' ? html`<p class="tier">Your funding tier now: <strong data-tier="${tier}">${tier}</strong> (${limits.perMinute} a minute, ${limits.perDay} a day${tier === 'pro' ? ', export included' : ''}). <a href="/console/plan">Your plan</a></p>` : ''}
${keyTable(
  who.state,
  keys.filter((k) => k.service === s.code),
  req.now,
)}
${createForm(who.state, s.code)}
</section>`,
        )}`,
      );
    },

    async create(req: ApiRequest): Promise<Reply> {
      const who = signedIn(req);
      if (!who) return redirect(stateOf(req), '/console/sign-in');
      const form = await readForm(req, who.state, secret);
      const input = fields(form, createSchema);
      const scopes = input.service === 'human' ? form.getAll('scopes') : undefined;
      if (
        input.service === 'human' &&
        (scopes!.length === 0 || scopes!.some((s) => s !== 'tasks:read' && s !== 'tasks:write'))
      ) {
        throw new HttpError(400, 'bad_request', 'Choose tasks:read, tasks:write or both.');
      }
      const { key, row } = createKey(
        ctx.db,
        {
          accountId: who.account.id,
          service: input.service,
          name: input.name,
          environment: input.service === 'human' ? (input.environment ?? 'test') : null,
          ...(scopes ? { scopes: [...new Set(scopes)] } : {}),
        },
        req.now,
      );
      return shownOnce(who.state, key, row, '');
    },

    async rotate(req: ApiRequest): Promise<Reply> {
      const who = signedIn(req);
      if (!who) return redirect(stateOf(req), '/console/sign-in');
      const form = await readForm(req, who.state, secret);
      const old = ownKey(req, who.account.id);
      const grace = GRACE[fields(form, rotateSchema).grace ?? 'keep']!;
      const { key, row } = rotateKey(ctx.db, old.id, req.now, grace.ms === null ? null : req.now + grace.ms);
      const until =
        grace.ms === null ? 'until you revoke it' : grace.ms === 0 ? 'no longer' : `until ${when(req.now + grace.ms)}`;
      return shownOnce(who.state, key, row, `The old key (${old.display_prefix}…) works ${until}.`);
    },

    async revoke(req: ApiRequest): Promise<Reply> {
      const who = signedIn(req);
      if (!who) return redirect(stateOf(req), '/console/sign-in');
      await readForm(req, who.state, secret);
      revokeKey(ctx.db, ownKey(req, who.account.id).id, req.now);
      return redirect(who.state, '/console/keys');
    },
  };
}
