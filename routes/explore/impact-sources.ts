/**
 * GET /explore/impact/sources: every dataset the impact register uses (issue 24), with its release and
 * the date that release was published, its licence and the credit it asks for, whether its terms allow
 * reuse with that credit, and what the register takes from it. Each source has an anchor (#src-<code>)
 * that the other impact pages link a value's source to.
 *
 * API calls: one, GET /impact/v1/sources.
 */
import { html, type Html } from '../../lib/html.ts';
import type { ApiRequest } from '../../lib/http/types.ts';
import { aboutFigures, apiCalls, stackTable, type ImpactSession } from './impact-common.ts';
import { browseLinks } from './impact-subjects.ts';
import { BASIS_LEGEND } from './impact-provenance.ts';
import { explorePage } from './layout.ts';

interface SourceEntry {
  code: string;
  name: string;
  publisher: string | null;
  homepage: string;
  enabled: boolean;
  verified_on: string | null;
  basis: string | null;
  licence: { name: string | null; url: string | null; spdx: string | null };
  credit: string | null;
  usage_restriction: string | null;
  note: string | null;
  reuse_open: boolean | null;
  feeds: string[];
  releases: Array<{
    release: string;
    published_on: string | null;
    accessed_on: string | null;
    url: string | null;
    note: string | null;
  }>;
}

const link = (url: string | null, text: string): Html => (url ? html`<a href="${url}">${text}</a>` : html`${text}`);

const licenceOf = (s: SourceEntry): Html => link(s.licence.url, s.licence.spdx ?? s.licence.name ?? 'not stated');

const reuse = (s: SourceEntry): string =>
  s.reuse_open === null ? 'by its licence' : s.reuse_open ? 'yes, with the credit' : 'no: its own terms apply';

function sourceSection(s: SourceEntry): Html {
  const releases = s.releases.map(
    (r) =>
      html`<li>${link(r.url, r.release)}${r.published_on ? `, published ${r.published_on}` : ''}${r.accessed_on ? `, accessed ${r.accessed_on}` : ''}${r.note ? html`. <span class="muted">${r.note}</span>` : ''}</li>`,
  );
  return html`<section class="source" id="src-${s.code}" aria-labelledby="src-${s.code}-h"><h3 id="src-${s.code}-h">${s.name} <span class="muted">(${s.code})</span></h3>
<dl class="call-detail"><dt>Publisher</dt><dd>${s.publisher ?? '—'}, ${link(s.homepage, s.homepage)}</dd>
<dt>Releases</dt><dd>${releases.length ? html`<ul>${releases}</ul>` : html`<span class="muted">none: an authored input</span>`}</dd>
<dt>Licence</dt><dd>${licenceOf(s)}${s.licence.spdx && s.licence.name ? ` (${s.licence.name})` : ''}</dd>
<dt>Reuse under the licence</dt><dd>${reuse(s)}${s.usage_restriction ? html`. <strong>Restriction: ${s.usage_restriction}.</strong>` : ''}</dd>
<dt>Credit</dt><dd>${s.credit ?? 'none required'}</dd>
<dt>What it feeds</dt><dd>${s.feeds.length ? html`<ul>${s.feeds.map((f) => html`<li>${f}</li>`)}</ul>` : '—'}</dd>
${s.basis ? html`<dt>How it is read</dt><dd>${s.basis}</dd>` : ''}
${s.note ? html`<dt>Note</dt><dd>${s.note}</dd>` : ''}
<dt>Verified</dt><dd>${s.verified_on ?? 'not verified'}${s.enabled ? '' : ' (not used by the current register)'}</dd></dl></section>`;
}

export async function impactSources(_req: ApiRequest, api: ImpactSession) {
  const env = await api.get<{ sources: SourceEntry[] }>('/sources');
  const sources = env.data.sources;
  const table = stackTable({
    className: 'datasets',
    caption: `${sources.length} sources of the impact register (data version ${env.data_version ?? 'none'})`,
    head: ['Dataset', 'Release', 'Published', 'Licence', 'Reuse', 'Feeds'],
    rows: sources.map((s) => {
      const latest = s.releases[s.releases.length - 1];
      return {
        header: html`<a href="#src-${s.code}">${s.name}</a>`,
        cells: [
          latest?.release ?? '—',
          latest?.published_on ?? '—',
          licenceOf(s),
          reuse(s),
          s.feeds.length ? s.feeds.join('; ') : '—',
        ],
      };
    }),
  });
  return explorePage({
    title: 'Data sources',
    body: html`<p class="lede">Every dataset the impact register is built from: the release it was read from and when that release was published, its licence and the credit it asks for, and what the register takes from it. The published files are kept in the repository as published, each folder with its SOURCE.md (data/impact/); <code>impact data build</code> reconciles every row of each.</p>
${browseLinks}${BASIS_LEGEND}${table}
<h2>Each source</h2>${sources.map(sourceSection)}
${aboutFigures(env)}${apiCalls(api.calls)}`,
  });
}
