/**
 * GET /explore/tasks: the playground's first page. A quote form whose choices (task types, cities,
 * SLAs) come from GET /human/v1/capabilities, and the account's sandbox tasks from GET
 * /human/v1/tasks, read with the playground key. Nothing is made here: the key is made at the first
 * order.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { dataOf, errorOf, type ApiCall } from './api.ts';
import { explorePage } from './layout.ts';
import { apiCalls, apiFailure, signedInLine, signInInvite } from './tasks-pages.ts';
import type { Playground } from './tasks-session.ts';
import { money, stateLabel, when, type TaskJson } from './tasks-words.ts';

export interface CapabilityJson {
  id: string;
  title: string;
  description: string;
  currency: string;
  spec_schema: {
    properties: Record<string, { type?: string; enum?: string[]; maxLength?: number; description?: string }>;
    required?: string[];
  };
  slas: Array<{ code: string; title: string; hours: number }>;
  live_geographies: Array<{ country_iso: string; city_slug: string; name: string }>;
}

export function quoteForm(
  capabilities: CapabilityJson[],
  chosen: { capability?: string; location?: string; sla?: string } = {},
): Html {
  const places = new Map<string, string>();
  const slas = new Map<string, string>();
  for (const c of capabilities) {
    for (const g of c.live_geographies) places.set(`${g.country_iso}/${g.city_slug}`, `${g.name} (${g.country_iso})`);
    for (const s of c.slas) slas.set(s.code, `${s.code}: ${s.title}`);
  }
  const sorted = [...places].sort((a, b) => a[0].localeCompare(b[0]));
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}"${value === current ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters quote-form" method="get" action="/explore/tasks/quote" aria-label="Get a quote">
<label>Task type <select name="capability">${capabilities.map((c) => option(c.id, `${c.title} (${c.id})`, chosen.capability))}</select></label>
<label>City <select name="location">${sorted.map(([value, label]) => option(value, label, chosen.location))}</select></label>
<label>SLA <select name="sla">${[...slas].map(([value, label]) => option(value, label, chosen.sla ?? 'standard'))}</select></label>
<button type="submit">Get a quote</button>
</form>`;
}

function taskList(tasks: TaskJson[]): Html {
  if (!tasks.length) return html`<p>No sandbox tasks yet.</p>`;
  return html`<table class="tasks"><caption>Your latest sandbox tasks, newest first</caption>
<thead><tr><th scope="col">Task</th><th scope="col">Type</th><th scope="col">Where</th><th scope="col">State</th><th scope="col">Ordered</th><th scope="col" class="num">Price</th></tr></thead>
<tbody>${tasks.map((t) => html`<tr><td data-label="Task"><a href="/explore/tasks/${t.ref}"><code>${t.ref}</code></a></td><td data-label="Type">${t.capability}</td><td data-label="Where">${t.location.city_slug} (${t.location.country_iso})</td><td data-label="State">${stateLabel(t.status)}</td><td data-label="Ordered">${when(t.created_at)}</td><td data-label="Price" class="num">${money(t.price_cents, t.currency)}</td></tr>`)}</tbody></table>`;
}

export function homePage(api: ApiCall, pg: Playground) {
  return async (req: ApiRequest): Promise<Reply> => {
    const player = pg.player(req);
    if (!player) return signInInvite();
    const catalogue = await api(req, '/human/v1/capabilities');
    if (catalogue.status !== 200) return apiFailure(catalogue, html`<a href="/explore">Back to the explorer</a>`);
    const capabilities = dataOf<CapabilityJson[]>(catalogue);
    const calls = ['GET /human/v1/capabilities'];

    let tasks: Html;
    const key = pg.currentKey(player.account.id, req.now);
    if (!key) {
      tasks = html`<p>No sandbox tasks yet: order one above.</p>`;
    } else {
      const listed = await pg.asKey(req, key, '/human/v1/tasks?limit=10');
      calls.push('GET /human/v1/tasks?limit=10');
      tasks =
        listed.status === 200
          ? taskList(dataOf<TaskJson[]>(listed))
          : html`<p class="notice error" role="alert">${errorOf(listed).message ?? `The human API answered ${listed.status}.`} (API error <code>${errorOf(listed).code ?? listed.status}</code>)</p>`;
    }

    return explorePage({
      title: 'Tasks playground',
      body: html`${signedInLine(player)}
<p>Quote a task, order it in the <strong>sandbox</strong> (it moves on a timer with synthetic evidence; no money moves and nobody is sent), watch it move, and read its result and evidence.</p>
<section aria-labelledby="quote-h"><h2 id="quote-h">1. Get a quote</h2>
${quoteForm(capabilities)}
<ul class="capabilities">${capabilities.map((c) => html`<li><strong>${c.title}</strong> (<code>${c.id}</code>): ${c.description}</li>`)}</ul>
</section>
<section aria-labelledby="tasks-h"><h2 id="tasks-h">Your sandbox tasks</h2>
${tasks}
</section>
${apiCalls(calls)}`,
    });
  };
}
