/**
 * /funding/v1/saved_searches: an account's saved searches (issue 27), for any key of the account (the
 * console manages the same ones). Each has its feed (/search.atom with its query) and, for an account
 * with a live webhook endpoint subscribed to funding.saved_search.matched, a signed notification for
 * every call new to the corpus that matches it (db/funding/saved-search-alerts.ts). Bounded per account
 * (MAX_SAVED_SEARCHES). Without a key: 401 key_required.
 */
import * as v from 'valibot';
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  MAX_SAVED_SEARCHES,
  ownSavedSearch,
  savedSearchMatches,
  type SavedSearchRow,
} from '../../db/funding/saved-searches.ts';
import { grantOf } from '../../lib/http/access.ts';
import { defineOperation, type Operation } from '../../lib/http/operation.ts';
import { jsonReply, type ApiRequest } from '../../lib/http/types.ts';
import { stringParam } from '../../lib/validate.ts';
import type { AppContext } from '../context.ts';
import { fundingError } from './errors.ts';
import { readSavedQuery } from './saved-query.ts';

export const NewSavedSearchBody = v.object({
  name: v.pipe(
    v.string('a name, text of 1 to 100 characters'),
    v.check((name) => name.trim().length > 0, 'a name, text of 1 to 100 characters'),
    v.maxLength(100, 'a name, text of 1 to 100 characters'),
    v.description('What to call it.'),
    v.examples(['Hydrogen, open, for SMEs']),
  ),
  query: v.pipe(
    v.string('a search query string'),
    v.maxLength(2000, 'a search query string of at most 2,000 characters'),
    v.description(
      "The search: /search's parameters as a query string (paging left out), or the URL of a search or of the explorer's search page. Checked as /search checks it.",
    ),
    v.examples(['q=hidr%C3%B3geno&status=open&applicant_type=sme']),
  ),
});

const savedParams = v.object({
  id: stringParam({
    max: 40,
    pattern: /^ss_[0-9A-Za-z]{20}$/,
    accepts: 'a saved search id such as ss_4fGh…',
    description: 'Saved search id.',
  }),
});

const iso = (ms: number) => new Date(ms).toISOString();

function present(row: SavedSearchRow) {
  return {
    id: row.public_id,
    name: row.name,
    query: row.query,
    created_at: iso(row.created_at),
    search_url: `/funding/v1/search?${row.query}`,
    feed_url: `/funding/v1/search.atom?${row.query}`,
    page_url: `/explore/funding?${row.query}`,
  };
}

/** The account the request was served as (any of its keys, or the explorer's signed-in visitor). */
function accountOf(req: ApiRequest): number {
  const id = grantOf(req)?.accountId;
  if (id === undefined)
    throw fundingError(
      'key_required',
      'Saved searches belong to an account: send one of its keys in X-API-Key (issued on the console).',
    );
  return id;
}

export function savedSearchOperations(ctx: AppContext): Operation[] {
  return [
    defineOperation({
      spec: {
        method: 'POST',
        path: '/saved_searches',
        operationId: 'createSavedSearch',
        summary: 'Save a search',
        description: `Saves a search for the key's account (at most ${MAX_SAVED_SEARCHES}; 409 limit_reached beyond). From then on, every call new to the corpus that matches it is notified once, as a funding.saved_search.matched webhook event to the account's live endpoints (registered on the console's Webhooks page); its feed follows it too.`,
        body: NewSavedSearchBody,
        responses: {
          201: { description: 'The saved search', schema: 'SavedSearch' },
          409: { description: `limit_reached: the account has ${MAX_SAVED_SEARCHES} saved searches`, schema: 'Error' },
          413: { description: 'payload_too_large: the body is over 1 MiB', schema: 'Error' },
          415: { description: 'unsupported_media_type: the body is not sent as application/json', schema: 'Error' },
        },
        security: [{ apiKey: [] }],
      },
      before: (req) => void accountOf(req),
      handle(req, { body }) {
        const { query, params } = readSavedQuery(body.query, req.now);
        const row = createSavedSearch(ctx.db, {
          accountId: accountOf(req),
          name: body.name,
          query,
          params,
          now: req.now,
        });
        return jsonReply(201, { data: present(row) }, { location: `/funding/v1/saved_searches/${row.public_id}` });
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/saved_searches',
        operationId: 'listSavedSearches',
        summary: "The account's saved searches",
        responses: { 200: { description: 'Newest first', schema: 'SavedSearchList' } },
        security: [{ apiKey: [] }],
      },
      before: (req) => void accountOf(req),
      handle: (req) =>
        jsonReply(200, {
          data: listSavedSearches(ctx.db, accountOf(req)).map(present),
          meta: { limit: MAX_SAVED_SEARCHES },
        }),
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/saved_searches/:id',
        operationId: 'getSavedSearch',
        summary: 'One saved search, with the calls it was notified of',
        params: savedParams,
        responses: { 200: { description: 'The saved search', schema: 'SavedSearchDetail' } },
        security: [{ apiKey: [] }],
      },
      before: (req) => void accountOf(req),
      handle(req, { params: { id } }) {
        const row = ownSavedSearch(ctx.db, accountOf(req), id);
        const { total, recent } = savedSearchMatches(ctx.db, row);
        return jsonReply(200, {
          data: {
            ...present(row),
            notified: {
              total,
              recent: recent.map((m) => ({ call_id: m.call_id, at: iso(m.matched_at), event_id: m.event_id })),
            },
          },
        });
      },
    }),
    defineOperation({
      spec: {
        method: 'DELETE',
        path: '/saved_searches/:id',
        operationId: 'deleteSavedSearch',
        summary: 'Delete a saved search',
        description: 'It is no longer matched; events already sent stay in the log.',
        params: savedParams,
        responses: { 204: { description: 'Deleted' } },
        security: [{ apiKey: [] }],
      },
      before: (req) => void accountOf(req),
      handle(req, { params: { id } }) {
        deleteSavedSearch(ctx.db, accountOf(req), id);
        return { status: 204, headers: {} };
      },
    }),
  ];
}
