/**
 * GET /explore/funding/calls/:id: one call as GET /funding/v1/calls/{id} serves it: title,
 * description, funder, amounts, dates (every cut-off, in the source's time zone), status in words,
 * the link to the source, the CORDIS projects and BOE notices attached, and the credit each source's
 * licence requires.
 */
import { html, type Html } from '../../lib/html.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { ApiCall } from './api.ts';
import { fundingFailure } from './funding-failure.ts';
import {
  amountsWords,
  amountWords,
  applicantWords,
  cutoffWords,
  dayWords,
  deadlineSourceWords,
  deadlineWords,
  quotaWords,
  sourceWords,
  statusWords,
  type CallJson,
} from './funding-words.ts';
import { explorePage } from './layout.ts';

interface Project {
  id: string;
  acronym: string | null;
  title: string;
  status: string | null;
  start_date: string | null;
  end_date: string | null;
  total_cost: number | null;
  ec_contribution: number | null;
  coordinator: string | null;
  coordinator_country: string | null;
  url: string | null;
}
interface Notice {
  id: string;
  kind: string;
  title: string;
  url: string | null;
  published_on: string;
  department: string | null;
}

const NOTICE_KINDS: Record<string, string> = {
  call: 'Announcement',
  bases: 'Bases reguladoras',
  correction: 'Correction',
  modification: 'Modification',
  award: 'Award resolution',
  other: 'Notice',
};
interface Change {
  at: string;
  field: string;
  description: string;
  seen_in: string;
}
interface CallDetail extends CallJson {
  projects: Project[];
  notices: Notice[];
  history: Change[];
  attribution: Array<{ source: string; licence: string; credit: string }>;
}

/** Only web links become links: a source URL is data, and a javascript: URL must not be clickable. */
const link = (url: string | null, text: string | Html): Html =>
  url && /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer">${text}</a>` : html`${text}`;

const day = (d: string | null) => (d ? html`<time datetime="${d}">${dayWords(d)}</time>` : html`not stated`);

function projectsSection(call: CallDetail): Html {
  if (!call.projects.length) return html``;
  return html`<section aria-labelledby="projects-h"><h2 id="projects-h">Projects funded under this call (CORDIS)</h2>
<ul>${call.projects.map((p) => html`<li>${link(p.url, p.acronym ? `${p.acronym}: ${p.title}` : p.title)}${p.coordinator ? html`, coordinated by ${p.coordinator}${p.coordinator_country ? ` (${p.coordinator_country})` : ''}` : ''}; EU contribution ${amountWords(p.ec_contribution, 'EUR')}${p.start_date ? html`; ${day(p.start_date)} to ${day(p.end_date)}` : ''}.</li>`)}</ul></section>`;
}

function noticesSection(call: CallDetail): Html {
  if (!call.notices.length) return html``;
  return html`<section aria-labelledby="notices-h"><h2 id="notices-h">In the BOE: announcement, bases, corrections, changes and awards</h2>
<ul>${call.notices.map((n) => html`<li><span class="notice-kind">${NOTICE_KINDS[n.kind] ?? n.kind}</span>, ${day(n.published_on)}: ${link(n.url, n.title)}${n.department ? html` (${n.department})` : ''}</li>`)}</ul></section>`;
}

/** What imports and syncs saw change, in words ("deadline extended from 15 January to 26 February 2026"). */
function historySection(call: CallDetail): Html {
  return html`<section aria-labelledby="history-h"><h2 id="history-h">What changed</h2>
${
  call.history.length
    ? html`<ol class="history">${call.history.map((c) => html`<li><time datetime="${c.at}">${dayWords(c.at.slice(0, 10))}</time>: ${c.description[0]!.toUpperCase()}${c.description.slice(1)}.</li>`)}</ol>`
    : html`<p>No change seen since it entered the corpus.</p>`
}
<p class="muted">As seen by this service's imports and syncs of the source (<a href="/funding/v1/calls/${encodeURIComponent(call.id)}/history">GET /funding/v1/calls/${call.id}/history</a>).</p></section>`;
}

function detail(call: CallDetail): Html {
  const cutoffs =
    call.cutoffs.length > 1
      ? html`<dt>Cut-offs</dt><dd><ul>${call.cutoffs.map((c) => html`<li>${cutoffWords(c.date, c.time, call.time_zone)}</li>`)}</ul></dd>`
      : html``;
  return html`<dl class="call-detail">
<dt>Status</dt><dd class="status status-${call.status}">${statusWords(call)}</dd>
<dt>Deadline</dt><dd>${deadlineWords(call)}${call.cutoffs.length > 1 ? ' (the next of several cut-offs)' : ''}${deadlineSourceWords(call)}</dd>
${cutoffs}
<dt>Opens</dt><dd>${day(call.opening_on)}</dd>
<dt>Published</dt><dd>${day(call.published_on)}</dd>
<dt>Funder</dt><dd>${call.funder ?? 'not stated'}</dd>
<dt>Programme</dt><dd>${call.programme ?? 'not stated'}</dd>
<dt>Budget</dt><dd>${amountsWords(call)}</dd>
<dt>Who may apply</dt><dd class="applicants">${applicantWords(call)}</dd>
<dt>Where</dt><dd>${call.country}${call.region ? html` · ${call.region}` : ''}</dd>
<dt>Source</dt><dd>${sourceWords(call.source)}, record <code>${call.source_id}</code>${call.url ? html`: ${link(call.url, 'read the call at its source')}` : ''}</dd>
</dl>
${call.summary ? html`<h2>Description</h2><p lang="${call.language}">${call.summary}</p>` : ''}
${historySection(call)}
${projectsSection(call)}
${noticesSection(call)}
<section aria-labelledby="credit-h"><h2 id="credit-h">Sources and licences</h2>
<ul>${call.attribution.map((a) => html`<li>${a.credit} <span class="muted">(${a.licence})</span></li>`)}</ul></section>`;
}

export function callPage(api: ApiCall, freshness: (req: ApiRequest) => Promise<Html> = async () => html``) {
  return async (req: ApiRequest): Promise<Reply> => {
    let id: string;
    try {
      id = decodeURIComponent(req.params.id ?? '');
    } catch {
      throw new HttpError(400, 'bad_request', 'That call address is not valid: its id is badly percent-encoded.');
    }
    const target = `/funding/v1/calls/${encodeURIComponent(id)}`;
    const answer = await api(req, target);
    const shown = html`<p class="api muted">This page shows the answer to <a href="${target}"><code>GET ${target}</code></a>.</p>`;
    if (answer.status !== 200) return fundingFailure(answer, shown);
    const call = (answer.json as { data: CallDetail }).data;
    return explorePage({
      title: call.title,
      body: html`<p><a href="/explore/funding">← Search funding calls</a></p>
${detail(call)}
${await freshness(req)}
${quotaWords(answer)}
${shown}`,
    });
  };
}
