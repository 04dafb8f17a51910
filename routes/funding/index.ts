/**
 * The funding corpus API, /funding/v1 (docs/services/funding.txt, SPEC "Funding corpus"). The operations
 * below are the whole URL space of the service, in the order they are matched; the OpenAPI contract
 * at /openapi.json is generated from the same list.
 */
import { MINUTE_REMAINING_HEADER, MINUTE_RESET_HEADER, REQUEST_ID_HEADER } from '../../lib/http/contract-headers.ts';
import type { Operation } from '../../lib/http/operation.ts';
import { serviceApi } from '../../lib/http/service-router.ts';
import type { AppContext } from '../context.ts';
import { fundingAccess } from './access.ts';
import { callOperation } from './calls.ts';
import { fundingEdgeError, renderFundingError } from './errors.ts';
import { exportOperation } from './export.ts';
import { historyOperation } from './history.ts';
import { Call, CallDetail, ErrorBody, SearchResponse, SourcesResponse } from './schemas.ts';
import { AtomFeed, CallHistory, SavedSearchDetail, SavedSearchList, SavedSearchResponse } from './schemas-follow.ts';
import { savedSearchOperations } from './saved-searches.ts';
import { fundingBody } from './body.ts';
import { searchOperations } from './search.ts';
import { sourcesOperation } from './sources.ts';

export const FUNDING_BASE = '/funding/v1';

const integer = { type: 'integer' };
const HEADERS = {
  'X-API-Tier': {
    description: 'Tier the request was served under.',
    schema: { type: 'string', enum: ['anonymous', 'basic', 'pro'] },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute.', schema: integer },
  'X-RateLimit-Remaining': MINUTE_REMAINING_HEADER,
  'X-RateLimit-Reset': MINUTE_RESET_HEADER,
  'X-Quota-Limit': { description: 'Daily allowance; absent for anonymous callers.', schema: integer },
  'X-Quota-Remaining': {
    description: 'Calls left today, this one counted; absent for anonymous callers.',
    schema: integer,
  },
  'X-Quota-Reset': {
    description: 'Seconds until the daily window rolls at 00:00 UTC; absent for anonymous callers.',
    schema: integer,
  },
  'X-Request-Id': REQUEST_ID_HEADER,
  'Retry-After': { description: 'Seconds to wait before retrying; authoritative.', schema: integer },
  ETag: {
    description: 'Tag of this feed; send it back in If-None-Match for a 304 when nothing changed.',
    schema: { type: 'string' },
  },
  'Last-Modified': {
    description: "When the feed's newest entry changed (or the corpus, when it has none); for If-Modified-Since.",
    schema: { type: 'string' },
  },
};
const EVERY_RESPONSE = Object.keys(HEADERS).filter((h) => !['Retry-After', 'ETag', 'Last-Modified'].includes(h));

/** Every operation takes the key optionally (anonymous or X-API-Key) unless it says otherwise (/export needs one). */
const optionalKey = (op: Operation): Operation => ({
  ...op,
  spec: { ...op.spec, security: op.spec.security ?? [{}, { apiKey: [] }] },
});

export function fundingApi(ctx: AppContext) {
  return serviceApi({
    name: 'funding',
    base: FUNDING_BASE,
    access: fundingAccess(ctx),
    // docs/services/funding.txt: every response carries the accounting headers, preflights included (counted like any request).
    accessOnPreflight: true,
    renderError: renderFundingError,
    domainErrors: fundingEdgeError,
    body: fundingBody,
    log: ctx.log,
    operations: (contract) =>
      [
        ...searchOperations(ctx),
        callOperation(ctx),
        historyOperation(ctx),
        sourcesOperation(ctx),
        exportOperation(ctx),
        ...savedSearchOperations(ctx),
        contract,
      ].map(optionalKey),
    contract: {
      title: 'trio funding corpus API',
      version: '1.0.0',
      description:
        'Search over funding calls from the EU Funding & Tenders Portal, CORDIS, BDNS and the BOE, normalised into one schema. Anonymous use is limited per address; a key in X-API-Key gives higher limits (basic; pro with a subscription). Errors are {"error": code, "message": text}.',
      components: {
        Call,
        CallDetail,
        CallHistory,
        SearchResponse,
        SourcesResponse,
        AtomFeed,
        SavedSearch: SavedSearchResponse,
        SavedSearchList,
        SavedSearchDetail,
        Error: ErrorBody,
      },
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      headers: HEADERS,
      everyResponseHeaders: EVERY_RESPONSE,
      commonResponses: {
        400: { description: 'bad_request: a parameter failed validation; the message names it', schema: 'Error' },
        401: { description: 'invalid_key, revoked_key, or key_required (saved searches need a key)', schema: 'Error' },
        404: { description: 'No such call or path', schema: 'Error' },
        429: {
          description: 'rate_limited (per minute) or quota_exceeded (per day)',
          schema: 'Error',
          headers: [...EVERY_RESPONSE, 'Retry-After'],
        },
        500: { description: 'internal_error: a fault on our side, logged with the request id', schema: 'Error' },
        503: {
          description: 'service_unavailable: the database is busy or unavailable; retry after Retry-After seconds',
          schema: 'Error',
          headers: [...EVERY_RESPONSE, 'Retry-After'],
        },
      },
    },
  });
}
