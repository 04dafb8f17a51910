/**
 * The human task ordering API, /human/v1 (docs/services/human.txt, SPEC "Human task ordering"). The
 * operations below are the whole URL space of the service, in the order they are matched; the OpenAPI
 * contract at /openapi.json is generated from the same list. The rules live in lib/human/ and the
 * stateful service in db/human/ (shared with the MCP server); these routes only parse requests and
 * shape replies.
 */
import {
  ACCOUNTED_HEADERS,
  MINUTE_REMAINING_HEADER,
  MINUTE_RESET_HEADER,
  REQUEST_ID_HEADER,
} from '../../lib/http/contract-headers.ts';
import { HUMAN_BASE } from '../../lib/human/present.ts';
import { serviceApi } from '../../lib/http/service-router.ts';
import type { Operation } from '../../lib/http/operation.ts';
import type { AppContext } from '../context.ts';
import { humanAccess } from './access.ts';
import { humanBody } from './body.ts';
import { catalogueOperations } from './catalogue.ts';
import { humanEdgeError, renderHumanError } from './errors.ts';
import {
  BalanceResponse,
  CapabilityList,
  CapabilityResponse,
  Coverage,
  ErrorBody,
  EvidenceList,
  LedgerResponse,
  QuoteResponse,
  ResultResponse,
  TaskEventList,
  TaskList,
  TaskResponse,
} from './schemas.ts';
import { mcpOperation } from './mcp.ts';
import { commonRefusals } from './refusals.ts';
import { taskOperations } from './tasks.ts';
import { EndpointList, EndpointResponse, EndpointWithSecret, EventList, EventResponse } from './webhook-schemas.ts';
import { webhookOperations } from './webhooks.ts';

export { HUMAN_BASE };

const integer = { type: 'integer' };
const HEADERS = {
  'X-RateLimit-Limit': {
    description:
      'Requests allowed per minute in this bucket (120 per key, shared with MCP; 60 per address without a key).',
    schema: integer,
  },
  'X-RateLimit-Remaining': MINUTE_REMAINING_HEADER,
  'X-RateLimit-Reset': MINUTE_RESET_HEADER,
  'X-Request-Id': REQUEST_ID_HEADER,
  'Retry-After': {
    description: 'Seconds to wait before retrying (429, 409 idempotency_key_in_flight) or polling again (result).',
    schema: integer,
  },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Location: { description: 'The created task.', schema: { type: 'string' } },
  ETag: { description: 'Version of the catalogue this answer shows.', schema: { type: 'string' } },
  'Cache-Control': { description: 'Caching allowed for this answer.', schema: { type: 'string' } },
};
const EVERY_RESPONSE = ACCOUNTED_HEADERS;

/** Public operations take a key if one is sent (it is checked and counted): an optional security requirement. */
const optionalKey = (op: Operation): Operation => ({
  ...op,
  spec: { ...op.spec, security: op.spec.security ?? [{}, { bearer: [] }, { apiKey: [] }] },
});

export function humanApi(ctx: AppContext) {
  const svc = ctx.human;
  const access = humanAccess(ctx);
  const limits = ctx.config.rateLimits.human;
  return serviceApi({
    name: 'human',
    base: HUMAN_BASE,
    access,
    renderError: renderHumanError,
    domainErrors: humanEdgeError,
    body: humanBody,
    log: ctx.log,
    operations: (contract) =>
      [
        ...catalogueOperations(svc),
        ...taskOperations(svc),
        ...webhookOperations(ctx),
        mcpOperation(ctx, svc, access),
        contract,
      ].map(optionalKey),
    contract: {
      title: 'trio human task ordering API',
      version: '1.0.0',
      description:
        'Quote, order, track, collect, cancel and dispute tasks done by verified people. Keys: ho_test_ (sandbox: runs on a timer with synthetic evidence, no money, nobody sent) or ho_live_ (holds the price on the prepaid balance and dispatches a person), in Authorization: Bearer or X-Api-Key. Errors are {"error": {"code", "message"}}. Money is integer cents.',
      components: {
        CapabilityList,
        CapabilityResponse,
        Coverage,
        QuoteResponse,
        TaskResponse,
        TaskList,
        TaskEventList,
        ResultResponse,
        EvidenceList,
        BalanceResponse,
        LedgerResponse,
        EndpointList,
        EndpointResponse,
        EndpointWithSecret,
        EventList,
        EventResponse,
        Error: ErrorBody,
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A ho_test_ or ho_live_ key; its scopes are tasks:read and/or tasks:write.',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      headers: HEADERS,
      everyResponseHeaders: EVERY_RESPONSE,
      commonResponses: commonRefusals({ key: limits.key.perMinute ?? 0, anonymous: limits.anonymous.perMinute ?? 0 }),
    },
  });
}
