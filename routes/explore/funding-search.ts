/**
 * GET /explore/funding: the funding search as a page. The form has exactly the parameters GET
 * /funding/v1/search takes (their allowed values come from the API's own validation constants); the
 * page forwards what the visitor sent, blank fields left out, to the API in process and shows its
 * answer: the calls, their deadlines and status in words, pages by the API's cursor and page number,
 * and the tier's remaining allowance from the answer's headers. A refusal (400, 429) is the API's own
 * message on a page with the API's status. Works without JavaScript (a GET form and links).
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import { CALL_SOURCES, MAX_PER_PAGE, SORTS, STATUSES } from '../funding/schemas.ts';
import { APPLICANT_FILTER_VALUES } from '../funding/schemas-follow.ts';
import type { ApiAnswer, ApiCall } from './api.ts';
import { fundingFailure } from './funding-failure.ts';
import {
  amountsWords,
  APPLICANT_FILTER_LABELS,
  applicantWords,
  deadlineWords,
  quotaWords,
  sourceWords,
  statusWords,
  type CallJson,
} from './funding-words.ts';
import { explorePage } from './layout.ts';

const SORT_LABELS: Record<string, string> = {
  relevance: 'best match (needs words)',
  deadline: 'deadline, soonest first',
  '-deadline': 'deadline, latest first',
  published: 'newest published first',
};
const STATUS_OPTION_LABELS: Record<string, string> = {
  open: 'open now',
  forthcoming: 'forthcoming (not open yet)',
  closed: 'closed',
};

/**
 * The visitor's parameters, blank ones left out, in the order sent: what the API is asked. The form's
 * "who may apply" boxes send applicant_type once per box; the API takes them as one list.
 */
export function forwardedQuery(url: string): URLSearchParams {
  const sent = new URL(url).searchParams;
  const out = new URLSearchParams();
  const types = sent
    .getAll('applicant_type')
    .flatMap((v) => v.split(','))
    .filter((v) => v.trim() !== '');
  for (const [name, value] of sent) {
    if (name !== 'applicant_type') {
      if (value.trim() !== '') out.append(name, value);
    } else if (types.length && !out.has(name)) out.set(name, [...new Set(types)].join(','));
  }
  return out;
}

const withParams = (path: string, params: URLSearchParams) => (params.size ? `${path}?${params}` : path);

function options(
  values: readonly string[],
  chosen: string | null,
  labels: Record<string, string>,
  blank: string,
): Html {
  return html`<option value="">${blank}</option>${values.map((v) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${labels[v] ?? v}</option>`)}`;
}

function filterForm(sent: URLSearchParams): Html {
  const get = (name: string) => sent.get(name);
  const chosenTypes = (get('applicant_type') ?? '').split(',');
  return html`<form class="filters funding-filters" method="get" action="/explore/funding" role="search" aria-label="Search funding calls">
<label>Words <input name="q" type="search" value="${get('q') ?? ''}" placeholder="subvenc* OR &quot;green hydrogen&quot;"></label>
<label>Country of the funder <input name="country" value="${get('country') ?? ''}" size="4" placeholder="ES, EU…"></label>
<label>Region <input name="region" value="${get('region') ?? ''}" placeholder="Madrid, Andalucía, ES511"></label>
<label>Status <select name="status">${options(STATUSES, get('status'), STATUS_OPTION_LABELS, 'any')}</select></label>
<label>Deadline on or after <input name="deadline_from" type="date" value="${get('deadline_from') ?? ''}" placeholder="YYYY-MM-DD"></label>
<label>Deadline on or before <input name="deadline_to" type="date" value="${get('deadline_to') ?? ''}" placeholder="YYYY-MM-DD"></label>
<fieldset class="applicants"><legend>Who may apply (any of)</legend>${APPLICANT_FILTER_VALUES.map((t) => html`<label><input name="applicant_type" type="checkbox" value="${t}"${chosenTypes.includes(t) ? html` checked` : ''}> ${APPLICANT_FILTER_LABELS[t]}</label>`)}</fieldset>
<label>Budget from (€) <input name="budget_min" type="number" min="0" step="1" value="${get('budget_min') ?? ''}" placeholder="100000"></label>
<label>Budget up to (€) <input name="budget_max" type="number" min="0" step="1" value="${get('budget_max') ?? ''}" placeholder="5000000"></label>
<label>Calls that state no budget <select name="budget_unstated">${options(['include', 'exclude'], get('budget_unstated'), { include: 'keep them', exclude: 'leave them out' }, 'default: keep them')}</select></label>
<label>Changed since <input name="changed_since" type="date" value="${get('changed_since') ?? ''}" placeholder="YYYY-MM-DD"></label>
<label>Source <select name="source">${options(CALL_SOURCES, get('source'), Object.fromEntries(CALL_SOURCES.map((s) => [s, sourceWords(s)])), 'all sources')}</select></label>
<label>Sort <select name="sort">${options(SORTS, get('sort'), SORT_LABELS, 'default: best match with words, else newest')}</select></label>
<label>Per page <input name="per_page" type="number" min="1" max="${MAX_PER_PAGE}" value="${get('per_page') ?? '20'}"></label>
<button type="submit">Search</button>
</form>
<p class="muted">Words: all must appear; <code>"a phrase"</code> in double quotes; <code>OR</code> between alternatives; a trailing <code>*</code> for a prefix. Accents and case do not matter. Region: words of the call's region, as Madrid or Andalucía. The deadline window keeps calls whose next cut-off falls on those days, both days included, in the call's own time zone; calls with no deadline are left out. Who may apply: a call open to any of the ticked kinds (a source that does not say is left out unless "not stated" is ticked). Budget: the call's total; a call whose source states none is kept (shown as "not stated") unless you leave such calls out. Changed since: calls in which an import saw the deadline, status, budget or title change.</p>`;
}

/** A partial match (issue 34): the words of the query the call lacks, as the API's meta.not_matching names them. */
const notMatchingWords = (missing: readonly string[] | undefined): Html =>
  missing?.length
    ? html`<p class="not-matching">Not matching: ${missing.map((w, i) => html`${i ? ', ' : ''}<s>${w}</s>`)}</p>`
    : html``;

function resultItem(call: CallJson, missing?: readonly string[]): Html {
  return html`<li class="call${missing?.length ? ' partial' : ''}">
<h3><a href="/explore/funding/calls/${encodeURIComponent(call.id)}">${call.title}</a></h3>
${notMatchingWords(missing)}
<dl>
<dt>Funder</dt><dd>${call.funder ?? 'not stated'}${call.programme ? html` · ${call.programme}` : ''}</dd>
<dt>Source</dt><dd>${sourceWords(call.source)}, ${call.country}</dd>
<dt>Deadline</dt><dd>${deadlineWords(call)}</dd>
<dt>Status</dt><dd class="status status-${call.status}">${statusWords(call)}</dd>
<dt>Who may apply</dt><dd class="applicants">${applicantWords(call)}</dd>
<dt>Budget</dt><dd>${amountsWords(call)}</dd>
${call.changed_at ? html`<dt>Changed</dt><dd><a href="/explore/funding/calls/${encodeURIComponent(call.id)}#history-h">changed ${call.changed_at.slice(0, 10)}</a></dd>` : ''}
</dl></li>`;
}

function pager(sent: URLSearchParams, meta: { page: number; next_cursor: string | null }): Html {
  const base = new URLSearchParams(sent);
  base.delete('cursor');
  base.delete('page');
  const previous = new URLSearchParams(base);
  if (meta.page > 2) previous.set('page', String(meta.page - 1));
  const next = new URLSearchParams(base);
  if (meta.next_cursor) next.set('cursor', meta.next_cursor);
  return html`<nav class="pager" aria-label="Pages of results">
${meta.page > 1 ? html`<a rel="prev" href="${withParams('/explore/funding', previous)}">← Previous page</a>` : ''}
<span>Page ${meta.page}</span>
${meta.next_cursor ? html`<a rel="next" href="${withParams('/explore/funding', next)}">Next page →</a>` : ''}
</nav>`;
}

function results(answer: ApiAnswer, sent: URLSearchParams): Html {
  const { data, meta } = answer.json as {
    data: CallJson[];
    meta: {
      total: number;
      total_exact: boolean;
      page: number;
      per_page: number;
      next_cursor: string | null;
      not_matching?: Record<string, string[]>;
    };
  };
  const missing = meta.not_matching ?? {};
  const partial = data.some((c) => missing[c.id]?.length)
    ? html` Then calls holding only some of the words, each saying which it lacks.`
    : html``;
  const count = meta.total_exact
    ? `${meta.total.toLocaleString('en-GB')} published call${meta.total === 1 ? '' : 's'} match`
    : `More than ${meta.total.toLocaleString('en-GB')} published calls match (the newest are listed)`;
  return html`<section aria-labelledby="results-h">
<h2 id="results-h">Results</h2>
<p class="count" role="status">${count}.${partial} Page ${meta.page}, ${meta.per_page} per page.</p>
${data.length ? html`<ol class="calls" start="${(meta.page - 1) * meta.per_page + 1}">${data.map((c) => resultItem(c, missing[c.id]))}</ol>` : html`<p>No published call on this page matches these filters.</p>`}
${pager(sent, meta)}
<p class="muted">Status is computed now from the deadline in the source's time zone: a call whose deadline has passed is closed even when its source still says open. A deadline shows a time of day only when the source stated one.</p>
</section>`;
}

export function searchPage(api: ApiCall, freshness: (req: ApiRequest) => Promise<Html> = async () => html``) {
  return async (req: ApiRequest): Promise<Reply> => {
    const sent = forwardedQuery(req.url);
    const target = withParams('/funding/v1/search', sent);
    const answer = await api(req, target);
    const shown = html`<p class="api muted">This page shows the answer to <a href="${target}"><code>GET ${target}</code></a>.</p>`;
    if (answer.status !== 200) return fundingFailure(answer, html`${filterForm(sent)}${shown}`);
    const follow = new URLSearchParams(sent);
    for (const name of ['page', 'cursor', 'per_page']) follow.delete(name);
    const followLinks = html`<p class="follow">Follow this search: <a href="${withParams('/funding/v1/search.atom', follow)}" type="application/atom+xml">Atom feed</a> (newest calls first, for any feed reader) · <a href="${withParams('/console/saved-searches', new URLSearchParams({ query: follow.toString() }))}">save it</a> and be notified of new calls (signed in).</p>`;
    return explorePage({
      title: 'Funding calls',
      body: html`<p>Open funding calls from four public sources, searched through trio's funding API.</p>
${await freshness(req)}
${quotaWords(answer)}
${filterForm(sent)}
${followLinks}
${results(answer, sent)}
${shown}`,
    });
  };
}
