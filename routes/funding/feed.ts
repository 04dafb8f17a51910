/**
 * A funding search as an Atom feed (lib/funding/atom.ts): GET /funding/v1/search.atom with the search's
 * parameters, or GET /funding/v1/search with Accept: application/atom+xml. The newest matching calls
 * first unless `sort` says otherwise; per_page (default 20, at most 100) entries; the same access stage,
 * limits and headers as the search. Conditional GET: ETag (a digest of the feed) and Last-Modified (its
 * newest entry, or the last import); a client holding them gets 304 (counted, as any request).
 */
import { createHash } from 'node:crypto';
import { fundingReads } from '../../db/funding/calls.ts';
import type { CallRow } from '../../db/funding/search.ts';
import { ATOM_TYPE, feedUpdated, renderAtom } from '../../lib/funding/atom.ts';
import { presentCall } from '../../lib/funding/present.ts';
import type { FilterParams } from '../../lib/funding/search-filters.ts';
import { notModified } from '../../lib/http/conditional.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';
import type { AppContext } from '../context.ts';
import { feedQuery } from './schemas.ts';
import type * as v from 'valibot';

/** Whether the client asks for Atom rather than JSON (Accept, with q-values; JSON wins a tie). */
export function prefersAtom(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  let atom = 0;
  let json = 0;
  for (const part of (Array.isArray(accept) ? accept.join(',') : accept).split(',')) {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q)) continue;
    if (type === ATOM_TYPE) atom = Math.max(atom, q);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, q);
  }
  return atom > 0 && atom > json;
}

/** What a feed is about, in words: "Funding calls: hidrógeno, open, who may apply: sme". */
function titleOf(params: FilterParams & Record<string, unknown>): string {
  const parts = Object.entries(params)
    .filter(([name, value]) => value !== undefined && name !== 'per_page' && name !== 'page' && name !== 'cursor')
    .map(([name, value]) => (name === 'q' ? String(value) : `${name.replace(/_/g, ' ')} ${String(value)}`));
  return `Funding calls${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

// A host name or address with an optional port, as a Host header carries it: nothing else reaches a link.
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The address the client reached this server at (its Host header; https when the connection or a trusted
 * proxy says so): a feed reader follows the entries' links, so they are absolute and this server's, not
 * `req.url`'s placeholder host. Without a usable Host (HTTP/1.0, in process): localhost.
 */
function originOf(req: ApiRequest): string {
  const host = String(req.headers.host ?? '').toLowerCase();
  return `${req.secure ? 'https' : 'http'}://${HOST.test(host) ? host : 'localhost'}`;
}

export function feedReplies(ctx: AppContext) {
  const reads = fundingReads(ctx.db);
  /** The Atom reply for the rows of a search's page. */
  return (req: ApiRequest, params: FilterParams & Record<string, unknown>, rows: CallRow[]): Reply => {
    const origin = originOf(req);
    const query = new URL(req.url).search;
    const input = {
      self: `${origin}/funding/v1/search.atom${query}`,
      page: `${origin}/explore/funding${query}`,
      origin,
      title: titleOf(params),
      corpusUpdated: reads.lastImport(),
      calls: rows.map((row) => ({ ...presentCall(row, req.now), first_seen: row.imported_at })),
    };
    const body = renderAtom(input);
    const etag = `"atom-${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const lastModified = feedUpdated(input);
    const headers = {
      etag,
      'last-modified': new Date(lastModified).toUTCString(),
      'cache-control': 'no-cache',
      vary: 'Accept',
    };
    if (notModified(req.headers, { etag, lastModified })) return { status: 304, headers };
    return { status: 200, headers: { 'content-type': `${ATOM_TYPE}; charset=utf-8`, ...headers }, body };
  };
}

/** GET /search.atom: the search's first page as a feed (`run` is the search route's own). */
export function feedOperation(run: (req: ApiRequest, params: v.InferOutput<typeof feedQuery>) => Reply) {
  return defineOperation({
    spec: {
      method: 'GET',
      path: '/search.atom',
      operationId: 'searchFeed',
      summary: 'A search as an Atom feed',
      description:
        "The calls matching the same parameters as /search, newest first unless sort is given (per_page entries, default 20), as an Atom 1.0 feed (RFC 4287): each entry links the call's page, its API record and its source, with its deadline, status, who may apply (also as categories) and budget in the summary, and the deadline and status in the urn:x-trio:funding:1 namespace. GET /search with Accept: application/atom+xml answers the same. Conditional GET: send back ETag in If-None-Match (or Last-Modified in If-Modified-Since) for a 304 when nothing changed. Same keys, limits and headers as /search.",
      query: feedQuery,
      responses: {
        200: {
          description: 'The feed',
          contentType: ATOM_TYPE,
          schema: 'AtomFeed',
          headers: ['ETag', 'Last-Modified'],
        },
        304: { description: 'Not modified: the If-None-Match tag (or If-Modified-Since date) is still current.' },
      },
    },
    handle: (req, { query }) => run(req, query),
  });
}
