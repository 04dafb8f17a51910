/**
 * GET /explore/tasks/:ref: one sandbox task as the human API serves it to the playground key: its
 * state in words and its history, "watch it move" (a refresh link; with JavaScript,
 * /explore/assets/tasks.js reloads the page when the API's poll_after_s has passed), and once
 * delivered the result (answer, confidence) and the evidence, photos included through
 * GET /explore/tasks/:ref/evidence/:id, which passes on the API's bytes. Cancel and dispute forms
 * appear only where the state allows them. Another account's task is the API's 404.
 */
import { join } from 'node:path';
import { html, type Html } from '../../lib/html.ts';
import { staticAsset } from '../../lib/http/static-asset.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { CANCEL_REASONS, DISPUTE_REASONS } from '../../lib/human/inputs.ts';
import { SECURITY_HEADERS } from '../console/layout.ts';
import { dataOf } from './api.ts';
import { explorePage } from './layout.ts';
import { apiCalls, apiFailure, signedInLine, signInInvite } from './tasks-pages.ts';
import type { Player, Playground } from './tasks-session.ts';
import { confidenceWords, history, money, stateLabel, stateWords, when, type TaskJson } from './tasks-words.ts';

interface ResultJson {
  answer: Record<string, unknown> | null;
  confidence_bps: number | null;
  delivered_at: string | null;
}
interface EvidenceJson {
  id: string;
  type: 'photo' | 'document' | 'note';
  synthetic: boolean;
  created_at: string;
  text?: string;
  media_type?: string;
  sha256?: string;
  size_bytes?: number;
  captured_at?: string | null;
  captured_at_source?: string | null;
  position?: { latitude: number; longitude: number; accuracy_m: number | null; source: string | null } | null;
}

const back = html`<a href="/explore/tasks">Back to the playground</a>`;
const notFound = (ref: string) =>
  apiFailure(
    { status: 404, headers: {}, json: { error: { code: 'not_found', message: `No task ${ref} in your playground.` } } },
    back,
  );
const value = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function watch(task: TaskJson): Html {
  const self = `/explore/tasks/${task.ref}`;
  if (task.poll_after_s === null) {
    return html`<p class="watch"><a href="${self}">Refresh</a> to see the latest state.</p>`;
  }
  return html`<p class="watch" id="watch" data-poll-after="${task.poll_after_s}" role="status">The API says the next change is due in about ${task.poll_after_s} s (its <code>poll_after_s</code>). <a href="${self}">Refresh</a> to see it.</p>
<script src="/explore/assets/tasks.js" defer></script>`;
}

function summary(task: TaskJson): Html {
  return html`<dl class="task-summary">
<dt>Type</dt><dd><code>${task.capability}</code></dd>
${Object.entries(task.spec).map(([k, v]) => html`<dt>${k}</dt><dd>${value(v)}</dd>`)}
<dt>Where</dt><dd>${task.location.city_slug} (${task.location.country_iso})</dd>
<dt>SLA</dt><dd><code>${task.sla}</code>, due by ${when(task.due_at)}</dd>
<dt>Price</dt><dd>${money(task.price_cents, task.currency)}; your ceiling was ${money(task.max_price_cents, task.currency)}. Sandbox: nothing is charged.</dd>
${task.dispute_deadline ? html`<dt>Dispute until</dt><dd>${when(task.dispute_deadline)}</dd>` : ''}
</dl>`;
}

function historyTable(task: TaskJson): Html {
  return html`<table class="history"><caption>History (times in UTC)</caption>
<thead><tr><th scope="col">State</th><th scope="col">Since</th><th scope="col">Note</th></tr></thead>
<tbody>${history(task).map((h) => html`<tr><td>${stateLabel(h.status)}</td><td>${when(h.at)}</td><td>${h.note}</td></tr>`)}</tbody></table>`;
}

function resultSection(result: ResultJson): Html {
  if (!result.answer) return html``;
  return html`<section aria-labelledby="result-h"><h2 id="result-h">Result</h2>
<dl class="result">${Object.entries(result.answer).map(([k, v]) => html`<dt>${k}</dt><dd>${value(v)}</dd>`)}
<dt>Confidence</dt><dd>${result.confidence_bps === null ? 'not given' : confidenceWords(result.confidence_bps)}</dd>
<dt>Delivered</dt><dd>${when(result.delivered_at)}</dd></dl>
<p class="muted">Confidence is how sure the person says they are of the answer, in basis points (10,000 = certain); it is their own estimate, not a measured probability. In the sandbox the answer and confidence are synthetic.</p>
</section>`;
}

function evidenceItem(ref: string, e: EvidenceJson): Html {
  const synthetic = e.synthetic ? ' (synthetic, made by the sandbox)' : '';
  if (e.type === 'note')
    return html`<li class="evidence-note"><strong>Note${synthetic}:</strong> <q>${e.text ?? ''}</q></li>`;
  const where = e.position
    ? html`${e.position.latitude}, ${e.position.longitude}${e.position.accuracy_m === null ? '' : ` (±${e.position.accuracy_m} m)`}, from ${e.position.source ?? 'unknown'}`
    : html`not given`;
  const facts = html`<ul class="facts"><li>Taken: ${when(e.captured_at ?? null)}${e.captured_at_source ? `, from ${e.captured_at_source}` : ''}</li><li>Position: ${where}</li><li>${e.media_type}, ${(e.size_bytes ?? 0).toLocaleString('en-GB')} bytes, SHA-256 <code class="hash">${e.sha256}</code></li></ul>`;
  const url = `/explore/tasks/${ref}/evidence/${e.id}`;
  if (e.type === 'photo') {
    return html`<li><figure><img src="${url}" alt="Photo evidence ${e.id}${synthetic}" loading="lazy"><figcaption>Photo <code>${e.id}</code>${synthetic}. ${facts}</figcaption></figure></li>`;
  }
  return html`<li>Document <a href="${url}"><code>${e.id}</code></a>${synthetic}. ${facts}</li>`;
}

function evidenceSection(ref: string, evidence: EvidenceJson[]): Html {
  return html`<section aria-labelledby="evidence-h"><h2 id="evidence-h">Evidence</h2>
${evidence.length ? html`<ul class="evidence">${evidence.map((e) => evidenceItem(ref, e))}</ul>` : html`<p>No evidence attached.</p>`}
<p class="muted">"from exif" means the photo's own metadata; "from upload" or "reported" means the person's upload time or stated position was used instead.</p></section>`;
}

function actions(player: Player, task: TaskJson, now: number): Html {
  const forms: Html[] = [];
  if (task.status === 'pending' || task.status === 'dispatched') {
    forms.push(html`<form method="post" action="/explore/tasks/${task.ref}/cancel" class="stack">
<input type="hidden" name="csrf" value="${player.csrf}">
<label for="cancel-reason">Why cancel</label>
<select id="cancel-reason" name="reason">${CANCEL_REASONS.map((r) => html`<option value="${r}">${r.replace(/_/g, ' ')}</option>`)}</select>
<button type="submit" class="danger">Cancel this task</button></form>`);
  }
  if (task.status === 'delivered' && task.dispute_deadline && Date.parse(task.dispute_deadline) > now) {
    forms.push(html`<form method="post" action="/explore/tasks/${task.ref}/dispute" class="stack">
<input type="hidden" name="csrf" value="${player.csrf}">
<label for="dispute-reason">What is wrong</label>
<select id="dispute-reason" name="reason">${DISPUTE_REASONS.map((r) => html`<option value="${r}">${r.replace(/_/g, ' ')}</option>`)}</select>
<label for="dispute-statement">In your words (20 to 2,000 characters)</label>
<textarea id="dispute-statement" name="statement" rows="3" minlength="20" maxlength="2000" required></textarea>
<button type="submit">Dispute the answer</button></form>`);
  }
  return forms.length
    ? html`<section aria-labelledby="actions-h"><h2 id="actions-h">What you can do now</h2>${forms}</section>`
    : html``;
}

export function taskPages(pg: Playground) {
  const script = staticAsset(join(import.meta.dirname, 'assets', 'tasks.js'), 'text/javascript; charset=utf-8');
  return {
    script: () => script,

    async show(req: ApiRequest): Promise<Reply> {
      const player = pg.player(req);
      if (!player) return signInInvite();
      const ref = req.params.ref ?? '';
      const key = pg.currentKey(player.account.id, req.now);
      if (!key) return notFound(ref);
      const base = `/human/v1/tasks/${encodeURIComponent(ref)}`;
      const got = await pg.asKey(req, key, base);
      if (got.status !== 200) return apiFailure(got, back);
      const task = dataOf<TaskJson>(got);
      const calls = [`GET ${base}`];
      let delivered = html``;
      if (task.result_available) {
        const [result, evidence] = [
          await pg.asKey(req, key, `${base}/result`),
          await pg.asKey(req, key, `${base}/evidence`),
        ];
        calls.push(`GET ${base}/result`, `GET ${base}/evidence`);
        if (result.status !== 200) return apiFailure(result, back);
        if (evidence.status !== 200) return apiFailure(evidence, back);
        delivered = html`${resultSection(dataOf<ResultJson>(result))}${evidenceSection(task.ref, dataOf<EvidenceJson[]>(evidence))}`;
      }
      return explorePage({
        title: `Task ${task.ref}`,
        body: html`${signedInLine(player)}
<p class="task-state">${stateWords(task.status)}. <span class="badge">${task.environment}</span></p>
${watch(task)}
${summary(task)}
${historyTable(task)}
${delivered}
${actions(player, task, req.now)}
<p>${back}</p>
${apiCalls(calls.map((c) => `${c} (as your playground key)`))}`,
      });
    },

    /** A photo or document of the evidence: the API's bytes and type, never rendered as a page. */
    async evidenceFile(req: ApiRequest): Promise<Reply> {
      const player = pg.player(req);
      if (!player) return signInInvite(403);
      const ref = req.params.ref ?? '';
      const key = pg.currentKey(player.account.id, req.now);
      if (!key) return notFound(ref);
      const file = await pg.asKey(
        req,
        key,
        `/human/v1/tasks/${encodeURIComponent(ref)}/evidence/${encodeURIComponent(req.params.evidence ?? '')}`,
      );
      if (file.status !== 200) return apiFailure(file, back);
      const type = file.headers['content-type'] ?? 'application/octet-stream';
      return {
        status: 200,
        headers: {
          ...SECURITY_HEADERS,
          'content-type': type,
          'cache-control': 'private, max-age=86400',
          ...(file.headers.etag ? { etag: file.headers.etag } : {}),
          // Photos show in the page; anything else (a PDF scan) is a download.
          'content-disposition': type.startsWith('image/') ? 'inline' : 'attachment',
        },
        body: file.bytes ?? Buffer.alloc(0),
      };
    },
  };
}
