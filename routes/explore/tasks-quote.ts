/**
 * GET /explore/tasks/quote?capability=…&location=CC/city&sla=…: POST /human/v1/quote with those
 * values and its answer in words: the price and the SLA's due time, or the refusal with the
 * alternatives the API offers (each a link to its own quote). A quoted price comes with the order
 * form: the spec fields from the capability's spec_schema (GET /human/v1/capabilities/{id}), the
 * quote_id, the CSRF token and an Idempotency-Key made for this rendering of the form, so that
 * submitting it twice orders once.
 */
import { randomUUID } from 'node:crypto';
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { Alternative, QuoteAnswer } from '../../lib/human/quote.ts';
import { dataOf, type ApiCall } from './api.ts';
import { explorePage } from './layout.ts';
import { quoteForm, type CapabilityJson } from './tasks-home.ts';
import { apiCalls, apiFailure, signedInLine, signInInvite } from './tasks-pages.ts';
import type { Player, Playground } from './tasks-session.ts';
import { durationWords, money, when } from './tasks-words.ts';

/** What POST /human/v1/quote answers (its `data`): the service's own type. */
type Quoted = Extract<QuoteAnswer, { status: 'quoted' }>;
type Refused = Extract<QuoteAnswer, { status: 'refused' }>;

const SANDBOX_VALUES: Array<[string, string]> = [
  ['sandbox:deliver', 'delivered with high confidence (what any other text does too)'],
  ['sandbox:low_confidence', 'delivered with low confidence and an inconclusive answer'],
  ['sandbox:fail', 'the person cannot do it: failed'],
  ['sandbox:expire', 'the SLA passes first: expired'],
  ['sandbox:stay_pending', 'stays pending: try cancelling'],
  ['sandbox:stay_dispatched', 'dispatched, then stays: try cancelling after dispatch'],
  ['sandbox:dispute_refund', 'delivered; a dispute is then resolved as refunded'],
];

/** "FR/paris" → the quote body's location; anything else goes as typed, for the API to judge. */
function locationOf(value: string): { country_iso: string; city_slug: string } {
  const at = value.indexOf('/');
  return at === -1
    ? { country_iso: value, city_slug: '' }
    : { country_iso: value.slice(0, at), city_slug: value.slice(at + 1) };
}

function specFields(capability: CapabilityJson): Html {
  const required = new Set(capability.spec_schema.required ?? []);
  return html`${Object.entries(capability.spec_schema.properties).map(([name, prop]) => {
    const id = `spec-${name}`;
    const hint = prop.description ? html`<small id="${id}-hint">${prop.description}</small>` : '';
    const described = prop.description ? html` aria-describedby="${id}-hint"` : '';
    if (prop.type === 'boolean') {
      return html`<label class="check"><input type="checkbox" id="${id}" name="spec_flag.${name}" value="true"${described}> ${name}</label>${hint}`;
    }
    const label = html`<label for="${id}">${name}${required.has(name) ? '' : ' (optional)'}</label>`;
    if (prop.enum)
      return html`${label}<select id="${id}" name="spec.${name}"${described}>${prop.enum.map((v) => html`<option>${v}</option>`)}</select>${hint}`;
    const req = required.has(name) ? html` required` : '';
    const max = prop.maxLength ? html` maxlength="${prop.maxLength}"` : '';
    return (prop.maxLength ?? 0) > 300
      ? html`${label}<textarea id="${id}" name="spec.${name}" rows="3"${req}${max}${described}></textarea>${hint}`
      : html`${label}<input id="${id}" name="spec.${name}"${req}${max}${described}>${hint}`;
  })}`;
}

function orderForm(player: Player, quote: Quoted, capability: CapabilityJson): Html {
  return html`<form method="post" action="/explore/tasks/order" class="stack order-form" aria-labelledby="order-h">
<h2 id="order-h">2. Order it (sandbox)</h2>
<input type="hidden" name="csrf" value="${player.csrf}">
<input type="hidden" name="idempotency_key" value="${randomUUID()}">
<input type="hidden" name="capability" value="${quote.capability}">
<input type="hidden" name="country_iso" value="${quote.location.country_iso}">
<input type="hidden" name="city_slug" value="${quote.location.city_slug}">
<input type="hidden" name="sla" value="${quote.sla}">
<input type="hidden" name="quote_id" value="${quote.quote_id}">
<fieldset><legend>What to do</legend>${specFields(capability)}</fieldset>
<label for="max-price">The most you accept to pay, in cents</label>
<input id="max-price" name="max_price_cents" inputmode="numeric" value="${quote.price_cents}" aria-describedby="max-price-hint">
<small id="max-price-hint">An order priced above this is refused and nothing is ordered. The quote fixes the price at ${money(quote.price_cents, quote.currency)} until it expires.</small>
<details><summary>Sandbox: choose what happens</summary>
<p>Type one of these as a text field of the task (for a claim to verify, the claim) to choose the branch it takes. Each step takes the sandbox delay, a few seconds.</p>
<dl class="sandbox-values">${SANDBOX_VALUES.map(([value, meaning]) => html`<dt><code>${value}</code></dt><dd>${meaning}</dd>`)}</dl>
</details>
<button type="submit">Order in the sandbox</button>
<p class="muted">Submitting this form twice orders once: it carries an Idempotency-Key made for this page.</p>
</form>`;
}

function quotedSection(quote: Quoted): Html {
  return html`<section aria-labelledby="price-h"><h2 id="price-h">Quote</h2>
<dl class="quote">
<dt>Task</dt><dd><code>${quote.capability}</code> in ${quote.city_name} (${quote.location.country_iso})</dd>
<dt>Price</dt><dd><strong>${money(quote.price_cents, quote.currency)}</strong>, exact: what a live order would hold on your balance. Sandbox orders are not charged.</dd>
<dt>SLA</dt><dd><code>${quote.sla}</code>: done within ${durationWords(quote.due_in_s)} of the order; ordered now, due by ${when(quote.due_at)}</dd>
<dt>Quote valid until</dt><dd>${when(quote.expires_at)} (ordering with it until then is charged this price)</dd>
<dt>People available now</dt><dd data-available="${quote.availability.available_now ? 'yes' : 'no'}">${
    quote.availability.available_now
      ? html`${quote.availability.people} verified people on duty here; a live order nobody accepts within ${durationWords(quote.availability.accept_within_s)} expires, its hold released`
      : html`nobody on duty here now: a live order would be refused (sandbox orders still run)${quote.alternatives.length ? html`; people are available in ${quote.alternatives.map((a, i) => html`${i ? ', ' : ''}${a.city_name}`)}` : ''}`
  }</dd>
</dl></section>`;
}

function refusedSection(refusal: Refused, query: (a: Alternative) => string): Html {
  return html`<section aria-labelledby="refused-h"><h2 id="refused-h">No quote: ${refusal.reason.replace(/_/g, ' ')}</h2>
<p class="notice warn" role="status">${refusal.message}</p>
${refusal.alternatives.length ? html`<p>Served alternatives:</p><ul class="alternatives">${refusal.alternatives.map((a) => html`<li><a href="${query(a)}">${a.city_name} (${a.location.country_iso}), <code>${a.sla}</code></a>: ${money(a.price_cents, refusal.currency)}, done within ${durationWords(a.due_in_s)}${a.distance_km === null ? '' : `, ${a.distance_km} km away`}${a.available_now ? '' : ', nobody on duty now'}</li>`)}</ul>` : html`<p>The API offers no alternative.</p>`}
</section>`;
}

export function quotePage(api: ApiCall, pg: Playground) {
  return async (req: ApiRequest): Promise<Reply> => {
    const player = pg.player(req);
    if (!player) return signInInvite();
    const sent = new URL(req.url).searchParams;
    const capabilityId = sent.get('capability') ?? '';
    const location = sent.get('location') ?? '';
    const sla = sent.get('sla') ?? '';
    const back = html`<a href="/explore/tasks">Back to the playground</a>`;
    // A field left out is left out of the body too, so the API says which one is missing.
    const body = {
      ...(capabilityId ? { capability: capabilityId } : {}),
      ...(location ? { location: locationOf(location) } : {}),
      ...(sla ? { sla } : {}),
    };
    const quote = await api(req, '/human/v1/quote', { method: 'POST', body });
    const calls = [`POST /human/v1/quote ${JSON.stringify(body)}`];
    if (quote.status !== 200) return apiFailure(quote, back, apiCalls(calls));

    const catalogue = await api(req, '/human/v1/capabilities');
    calls.push('GET /human/v1/capabilities');
    if (catalogue.status !== 200) return apiFailure(catalogue, back);
    const capabilities = dataOf<CapabilityJson[]>(catalogue);
    const data = dataOf<Quoted | Refused>(quote);
    const capability = capabilities.find((c) => c.id === data.capability);
    const again = (a: Alternative) =>
      `/explore/tasks/quote?${new URLSearchParams({ capability: data.capability, location: `${a.location.country_iso}/${a.location.city_slug}`, sla: a.sla })}`;

    return explorePage({
      title: data.status === 'quoted' ? `Quote: ${money(data.price_cents, data.currency)}` : 'No quote for this',
      body: html`${signedInLine(player)}
${data.status === 'quoted' ? quotedSection(data) : refusedSection(data, again)}
${data.status === 'quoted' && capability ? orderForm(player, data, capability) : ''}
<details><summary>Quote something else</summary>${quoteForm(capabilities, { capability: capabilityId, location, sla })}</details>
<p>${back}</p>
${apiCalls(calls)}`,
    });
  };
}
