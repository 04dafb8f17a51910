/**
 * Webhooks of the human API (issue 26): the key's account registers endpoints in the key's environment,
 * reads its event log, replays an event and sends a test event. The mechanism is the shared one
 * (db/webhooks/: endpoints, the event log, the deliverer); these routes only parse and shape. Reads
 * need tasks:read, changes tasks:write.
 */
import * as v from 'valibot';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  ownEndpoint,
  presentEndpoint,
  rotateSecret,
  updateEndpoint,
  type WebhookOwner,
} from '../../db/webhooks/endpoints.ts';
import { getEvent, listEvents, replayEvent, sendTestEvent } from '../../db/webhooks/events.ts';
import { requireScope, type HumanCaller } from '../../db/human/service.ts';
import { defineOperation, type Operation } from '../../lib/http/operation.ts';
import { jsonReply, type ApiRequest } from '../../lib/http/types.ts';
import { EndpointBody, EndpointChanges } from '../../lib/webhooks/inputs.ts';
import { integerParam, stringParam } from '../../lib/validate.ts';
import type { OperationSpec } from '../../lib/openapi.ts';
import type { AppContext } from '../context.ts';
import { requireCaller } from './access.ts';
import { BODY_REFUSALS, refusals } from './refusals.ts';

const read: OperationSpec['security'] = [{ bearer: ['tasks:read'] }, { apiKey: ['tasks:read'] }];
const write: OperationSpec['security'] = [{ bearer: ['tasks:write'] }, { apiKey: ['tasks:write'] }];
const noStore = { 'cache-control': 'no-store' };

const endpointParams = v.object({
  id: stringParam({
    min: 23,
    max: 23,
    pattern: /^we_[0-9A-Za-z]{20}$/,
    accepts: 'a webhook endpoint id: we_ followed by 20 letters and digits',
    description: "The endpoint's id.",
  }),
});
const eventParams = v.object({
  id: stringParam({
    min: 28,
    max: 28,
    pattern: /^evt_[0-9A-Za-z]{24}$/,
    accepts: 'an event id: evt_ followed by 24 letters and digits',
    description: "The event's id (the webhook-id header of its deliveries).",
  }),
});
const EventQuery = v.object({
  type: v.optional(
    stringParam({
      max: 100,
      pattern: /^[a-z][a-z0-9_.]*(\.\*)?$/,
      accepts: 'an event type such as human.task.delivered, or a namespace such as human.task.*',
      description: 'Only events of this type, or of this namespace (human.task.*).',
    }),
  ),
  task: v.optional(
    stringParam({
      min: 24,
      max: 24,
      pattern: /^tsk_[0-9A-Za-z]{20}$/,
      accepts: 'a task ref: tsk_ followed by 20 letters and digits',
      description: "Only this task's events, oldest last.",
    }),
  ),
  limit: v.optional(integerParam(1, 100, 'Events per page, 1 to 100; default 20.')),
  cursor: v.optional(
    stringParam({
      max: 20,
      pattern: /^[0-9]+$/,
      accepts: 'a next_cursor value from an earlier page',
      description: 'Continues a listing: meta.next_cursor of the previous page.',
    }),
  ),
});
const ReplayBody = v.strictObject({
  endpoint: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^we_[0-9A-Za-z]{20}$/, 'a webhook endpoint id (we_…)'),
      v.description('Send it to this endpoint only (default: every enabled endpoint subscribed to its type).'),
    ),
  ),
});

/** The caller as an owner of endpoints and events, once its scope is checked. */
function owner(req: ApiRequest, scope: 'tasks:read' | 'tasks:write', doing: string): WebhookOwner {
  const caller: HumanCaller = requireCaller(req);
  requireScope(caller, scope, doing);
  return { accountId: caller.accountId, environment: caller.environment };
}
const mayWrite = (doing: string) => (req: ApiRequest) => void owner(req, 'tasks:write', doing);

export function webhookOperations(ctx: AppContext): Operation[] {
  const { db } = ctx;
  const policy = { allowPrivate: ctx.config.webhooks.allowPrivate };
  return [
    defineOperation({
      spec: {
        method: 'GET',
        path: '/webhook_endpoints',
        operationId: 'listWebhookEndpoints',
        summary: "Your webhook endpoints in the key's environment (scope tasks:read)",
        security: read,
        responses: { 200: { description: 'The endpoints', schema: 'EndpointList' }, ...refusals('forbidden_scope') },
      },
      handle: (req) =>
        jsonReply(200, { data: listEndpoints(db, owner(req, 'tasks:read', 'listing webhook endpoints')) }, noStore),
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/webhook_endpoints',
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint (scope tasks:write); its signing secret is in this answer only',
        description:
          "Every task state change of the key's account and environment is POSTed to the URL as an event (Standard Webhooks 1.0: webhook-id, webhook-timestamp, webhook-signature headers; README shows a receiver verifying them), retried with backoff for a day until a 2xx, in order per task. Sandbox keys register sandbox endpoints, which receive sandbox events. At most 16 endpoints per environment.",
        body: EndpointBody,
        security: write,
        responses: {
          201: { description: 'The endpoint, with its secret', schema: 'EndpointWithSecret' },
          ...refusals('forbidden_scope', ...BODY_REFUSALS),
        },
      },
      beforeBody: mayWrite('registering a webhook endpoint'),
      handle(req, { body }) {
        const made = createEndpoint(db, owner(req, 'tasks:write', ''), body, req.now, policy);
        return jsonReply(201, { data: { ...made.endpoint, secret: made.secret } }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/webhook_endpoints/:id',
        operationId: 'getWebhookEndpoint',
        summary: 'One webhook endpoint (scope tasks:read)',
        params: endpointParams,
        security: read,
        responses: {
          200: { description: 'The endpoint', schema: 'EndpointResponse' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle: (req, { params }) =>
        jsonReply(
          200,
          { data: presentEndpoint(ownEndpoint(db, owner(req, 'tasks:read', 'reading a webhook endpoint'), params.id)) },
          noStore,
        ),
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/webhook_endpoints/:id',
        operationId: 'updateWebhookEndpoint',
        summary: 'Change an endpoint: URL, event types, description, enabled (scope tasks:write)',
        params: endpointParams,
        body: EndpointChanges,
        security: write,
        responses: {
          200: { description: 'The endpoint', schema: 'EndpointResponse' },
          ...refusals('forbidden_scope', 'not_found', ...BODY_REFUSALS),
        },
      },
      beforeBody: mayWrite('changing a webhook endpoint'),
      handle: (req, { params, body }) =>
        jsonReply(
          200,
          { data: updateEndpoint(db, owner(req, 'tasks:write', ''), params.id, body, req.now, policy) },
          noStore,
        ),
    }),
    defineOperation({
      spec: {
        method: 'DELETE',
        path: '/webhook_endpoints/:id',
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete an endpoint; its pending deliveries end (scope tasks:write)',
        params: endpointParams,
        security: write,
        responses: {
          200: { description: 'The deleted endpoint', schema: 'EndpointResponse' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle: (req, { params }) =>
        jsonReply(
          200,
          { data: deleteEndpoint(db, owner(req, 'tasks:write', 'deleting a webhook endpoint'), params.id, req.now) },
          noStore,
        ),
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/webhook_endpoints/:id/rotate_secret',
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret, in this answer only; the old one also signs for 24 hours (scope tasks:write)',
        params: endpointParams,
        security: write,
        responses: {
          200: { description: 'The endpoint, with its new secret', schema: 'EndpointWithSecret' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params }) {
        const rotated = rotateSecret(db, owner(req, 'tasks:write', 'rotating a webhook secret'), params.id, req.now);
        return jsonReply(200, { data: { ...rotated.endpoint, secret: rotated.secret } }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/webhook_endpoints/:id/test',
        operationId: 'testWebhookEndpoint',
        summary: 'Send a test event (webhook.endpoint.test) to this endpoint (scope tasks:write)',
        description:
          'Queued at once and delivered like any event (signed, retried); GET /events/{id} shows the attempt and what the receiver answered.',
        params: endpointParams,
        security: write,
        responses: {
          202: { description: 'The test event, queued', schema: 'EventResponse' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle: (req, { params }) =>
        jsonReply(
          202,
          { data: sendTestEvent(db, owner(req, 'tasks:write', 'sending a test event'), params.id, req.now) },
          noStore,
        ),
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/events',
        operationId: 'listEvents',
        summary: "The event log of the key's account and environment, newest first, 30 days (scope tasks:read)",
        description:
          'Every event, delivered or not (an account without endpoints still has its log): catch up after downtime by paging until an event you have seen, then replay what you missed if you prefer it pushed.',
        query: EventQuery,
        security: read,
        responses: { 200: { description: 'A page of events', schema: 'EventList' }, ...refusals('forbidden_scope') },
      },
      handle(req, { query }) {
        const limit = query.limit ?? 20;
        const page = listEvents(db, owner(req, 'tasks:read', 'listing events'), {
          type: query.type,
          subject: query.task === undefined ? undefined : `task:${query.task}`,
          before: query.cursor === undefined ? undefined : Number(query.cursor),
          limit,
        });
        return jsonReply(200, { data: page.data, meta: { limit, next_cursor: page.next_cursor } }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/events/:id',
        operationId: 'getEvent',
        summary: 'One event, with every delivery of it and its last attempt (scope tasks:read)',
        params: eventParams,
        security: read,
        responses: {
          200: { description: 'The event', schema: 'EventResponse' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle: (req, { params }) =>
        jsonReply(200, { data: getEvent(db, owner(req, 'tasks:read', 'reading an event'), params.id) }, noStore),
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/events/:id/replay',
        operationId: 'replayEvent',
        summary: 'Send an event again, now (scope tasks:write)',
        description:
          'To one endpoint ({"endpoint": "we_…"}) or to every enabled endpoint subscribed to its type (no body). The receiver gets the same body and webhook-id, signed again with a new timestamp.',
        params: eventParams,
        body: ReplayBody,
        bodyOptional: true,
        security: write,
        responses: {
          202: { description: 'The event, with the new deliveries queued', schema: 'EventResponse' },
          ...refusals('forbidden_scope', 'not_found', ...BODY_REFUSALS),
        },
      },
      beforeBody: mayWrite('replaying an event'),
      handle: (req, { params, body }) =>
        jsonReply(
          202,
          { data: replayEvent(db, owner(req, 'tasks:write', ''), params.id, body?.endpoint, req.now) },
          noStore,
        ),
    }),
  ];
}
