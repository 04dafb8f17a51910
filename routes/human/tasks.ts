/**
 * The keyed part of the human API: order, list, read, collect, cancel and dispute tasks; the balance
 * and its ledger. The router parses each request's declared inputs (lib/http/operation.ts); each
 * handler calls a service function (db/human/), which checks the scope and does the work, so the MCP
 * server can call the very same functions. Writes check the caller, its scope and (orders) the
 * Idempotency-Key in `beforeBody`: those refusals come before anything about the body.
 */
import { ACCOUNTED_HEADERS } from '../../lib/http/contract-headers.ts';
import * as v from 'valibot';
import { CancelBody, DisputeBody, LedgerQuery, ListQuery, OrderBody } from '../../lib/human/inputs.ts';
import { createOrder, parseIdempotencyKey } from '../../db/human/orders.ts';
import { cancelTask, disputeTask } from '../../db/human/task-actions.ts';
import {
  getBalance,
  getEvidence,
  getEvidenceFile,
  getLedger,
  getResult,
  getTask,
  getTaskEvents,
  listTasks,
} from '../../db/human/tasks-read.ts';
import { requireScope, type HumanService } from '../../db/human/service.ts';
import { defineOperation, type Operation } from '../../lib/http/operation.ts';
import { jsonReply, type ApiRequest } from '../../lib/http/types.ts';
import type { OperationSpec } from '../../lib/openapi.ts';
import { stringParam } from '../../lib/validate.ts';
import { requireCaller } from './access.ts';
import { BODY_REFUSALS, refusals } from './refusals.ts';

const ref = stringParam({
  min: 24,
  max: 24,
  pattern: /^tsk_[0-9A-Za-z]{20}$/,
  accepts: 'a task ref: tsk_ followed by 20 letters and digits',
  description: "The task's ref.",
});
const refParams = v.object({ ref });
const fileParams = v.object({
  ref,
  evidence: stringParam({
    max: 20,
    pattern: /^evd_\d{1,12}$/,
    accepts: 'an evidence id such as evd_12',
    description: "An evidence item's id.",
  }),
});

const read: OperationSpec['security'] = [{ bearer: ['tasks:read'] }, { apiKey: ['tasks:read'] }];
const write: OperationSpec['security'] = [{ bearer: ['tasks:write'] }, { apiKey: ['tasks:write'] }];
const noStore = { 'cache-control': 'no-store' };

/** The Idempotency-Key header as sent (repeated: joined, so parseIdempotencyKey refuses it). */
const idempotencyKey = (req: ApiRequest) => {
  const header = req.headers['idempotency-key'];
  return Array.isArray(header) ? header.join(',') : header;
};

/** A write's checks before its body is read: a caller, with tasks:write. */
const mayWrite = (doing: string) => (req: ApiRequest) => {
  requireScope(requireCaller(req), 'tasks:write', doing);
};

/** The order's Idempotency-Key, for the contract; parseIdempotencyKey checks it (bare or RFC 8941-quoted). */
const idempotencyHeader = v.object({
  'Idempotency-Key': v.pipe(
    v.string(),
    v.regex(/^"?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"?$/),
    v.description(
      'A UUID, new for each order; the same key with the same body within 24 hours returns the first answer.',
    ),
  ),
});

export function taskOperations(svc: HumanService): Operation[] {
  return [
    defineOperation({
      spec: {
        method: 'POST',
        path: '/tasks',
        operationId: 'createTask',
        summary: 'Order a task (scope tasks:write; Idempotency-Key required)',
        description:
          'Idempotency-Key (a UUID) is required. The same key with the same body within 24 hours replays the first answer with Idempotent-Replayed: true; with another body it is 422; while the first is still being written it is 409 with Retry-After: 1. Live keys hold the price on the prepaid balance in the same transaction (402 when it does not cover it); sandbox keys move no money. Everything is validated before anything is stored. The answer is durable on disk when it is sent.',
        headers: idempotencyHeader,
        body: OrderBody,
        security: write,
        responses: {
          201: {
            description: 'The task, with ref and poll_after_s',
            schema: 'TaskResponse',
            headers: [
              'X-RateLimit-Limit',
              'X-RateLimit-Remaining',
              'X-RateLimit-Reset',
              'X-Request-Id',
              'Location',
              'Idempotent-Replayed',
            ],
          },
          ...refusals(
            'idempotency_key_required',
            'insufficient_balance',
            'forbidden_scope',
            'price_above_max',
            'idempotency_key_in_flight',
            'no_one_available',
            'idempotency_key_reused',
            'location_not_served',
            'sla_not_served',
            ...BODY_REFUSALS,
          ),
        },
      },
      // Refusals that do not depend on the body come first: scope, then the Idempotency-Key.
      beforeBody(req) {
        mayWrite('ordering a task')(req);
        parseIdempotencyKey(idempotencyKey(req));
      },
      async handle(req, { body }) {
        const outcome = await createOrder(svc, requireCaller(req), idempotencyKey(req), body, req.now);
        return jsonReply(
          outcome.status,
          { data: outcome.task },
          {
            location: `/human/v1/tasks/${outcome.task.ref}`,
            ...noStore,
            ...(outcome.replayed ? { 'idempotent-replayed': 'true' } : {}),
          },
        );
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks',
        operationId: 'listTasks',
        summary: 'Your tasks, newest first (scope tasks:read)',
        description:
          "The tasks of the key's account in the key's environment (sandbox or live), newest first, filtered by statuses (status=pending,dispatched), capability, client_reference, one metadata key (metadata=key:value) and creation time, a page at a time.",
        query: ListQuery,
        security: read,
        responses: { 200: { description: 'A page of tasks', schema: 'TaskList' }, ...refusals('forbidden_scope') },
      },
      handle(req, { query }) {
        return jsonReply(200, listTasks(svc, requireCaller(req), query, req.now), noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks/:ref',
        operationId: 'getTask',
        summary: 'One task (scope tasks:read)',
        description: "Another account's task, or one of the other environment, is 404.",
        params: refParams,
        security: read,
        responses: {
          200: { description: 'The task', schema: 'TaskResponse' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params: { ref: r } }) {
        return jsonReply(200, { data: getTask(svc, requireCaller(req), r, req.now) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks/:ref/events',
        operationId: 'getTaskEvents',
        summary: "The task's history: every state it reached, oldest first (scope tasks:read)",
        description:
          'Each entry is the webhook event that reported the change (its id is the webhook-id header of the delivery, and GET /events/{id} shows where it was delivered), with the state reached, the state before, who moved it (client, person, scheduler, sandbox, operator) and when.',
        params: refParams,
        security: read,
        responses: {
          200: { description: "The task's events", schema: 'TaskEventList' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params: { ref: r } }) {
        return jsonReply(200, { data: getTaskEvents(svc, requireCaller(req), r) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks/:ref/result',
        operationId: 'getResult',
        summary: 'The result: the answer and confidence once delivered (scope tasks:read)',
        description:
          'Until an answer exists: the status, answer null and poll_after_s, also sent as Retry-After. Poll no sooner than that; stop once answer is set (or the task ended without one).',
        params: refParams,
        security: read,
        responses: {
          200: {
            description: 'The result so far',
            schema: 'ResultResponse',
            headers: [...ACCOUNTED_HEADERS, 'Retry-After'],
          },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params: { ref: r } }) {
        const result = getResult(svc, requireCaller(req), r, req.now);
        return jsonReply(
          200,
          { data: result },
          { ...noStore, ...(result.poll_after_s === null ? {} : { 'retry-after': String(result.poll_after_s) }) },
        );
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks/:ref/evidence',
        operationId: 'getEvidence',
        summary: 'The evidence list (scope tasks:read)',
        description:
          'Typed items: photo and document (SHA-256, size, capture time and position, with where each came from, and a download URL) and note.',
        params: refParams,
        security: read,
        responses: {
          200: { description: 'The evidence', schema: 'EvidenceList' },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params: { ref: r } }) {
        return jsonReply(200, { data: getEvidence(svc, requireCaller(req), r) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/tasks/:ref/evidence/:evidence',
        operationId: 'getEvidenceFile',
        summary: 'The bytes of one photo or document (scope tasks:read)',
        params: fileParams,
        security: read,
        responses: {
          200: {
            description: 'The file, with its SHA-256 as ETag',
            contentType: 'application/octet-stream',
            alternatives: { 'image/jpeg': {}, 'image/png': {}, 'image/webp': {}, 'application/pdf': {} },
          },
          ...refusals('forbidden_scope', 'not_found'),
        },
      },
      handle(req, { params: p }) {
        const file = getEvidenceFile(svc, requireCaller(req), p.ref, p.evidence);
        return {
          status: 200,
          headers: {
            'content-type': file.media_type,
            etag: `"${file.sha256}"`,
            'cache-control': 'private, max-age=86400, immutable',
            'x-content-type-options': 'nosniff',
            'content-disposition': 'attachment',
          },
          body: file.bytes,
        };
      },
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/tasks/:ref/cancel',
        operationId: 'cancelTask',
        summary: 'Cancel a pending or dispatched task (scope tasks:write)',
        description:
          'The body is optional: {"reason": …}. A live hold is released in full. Any other state is 409 invalid_state.',
        // The document sends nothing to cancel: the body (a reason) is optional (body.ts).
        params: refParams,
        body: CancelBody,
        bodyOptional: true,
        security: write,
        responses: {
          200: { description: 'The cancelled task', schema: 'TaskResponse' },
          ...refusals('forbidden_scope', 'not_found', 'invalid_state', ...BODY_REFUSALS),
        },
      },
      beforeBody: mayWrite('cancelling a task'),
      async handle(req, { params: { ref: r }, body }) {
        return jsonReply(200, { data: await cancelTask(svc, requireCaller(req), r, body, req.now) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'POST',
        path: '/tasks/:ref/dispute',
        operationId: 'disputeTask',
        summary: 'Dispute a delivered answer within 72 hours (scope tasks:write)',
        description:
          "The task becomes disputed and its hold stays until an operator decides: the answer stands (completed) or a refund (refunded). After the task's dispute_deadline (72 hours after delivery; the sandbox's is ten delays) the answer is 409 invalid_state saying the window closed.",
        params: refParams,
        body: DisputeBody,
        security: write,
        responses: {
          200: { description: 'The disputed task', schema: 'TaskResponse' },
          ...refusals('forbidden_scope', 'not_found', 'invalid_state', ...BODY_REFUSALS),
        },
      },
      beforeBody: mayWrite('disputing a task'),
      async handle(req, { params: { ref: r }, body }) {
        return jsonReply(200, { data: await disputeTask(svc, requireCaller(req), r, body, req.now) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/balance',
        operationId: 'getBalance',
        summary: 'The prepaid balance: available and held (scope tasks:read)',
        description: "Live keys: the account's balance. Sandbox keys: always zero (sandbox orders move no money).",
        security: read,
        responses: { 200: { description: 'The balance', schema: 'BalanceResponse' }, ...refusals('forbidden_scope') },
      },
      handle(req) {
        return jsonReply(200, { data: getBalance(svc, requireCaller(req)) }, noStore);
      },
    }),
    defineOperation({
      spec: {
        method: 'GET',
        path: '/ledger',
        operationId: 'getLedger',
        summary: 'The ledger: every credit, hold, capture and release, newest first (scope tasks:read)',
        query: LedgerQuery,
        security: read,
        responses: {
          200: { description: 'A page of ledger entries', schema: 'LedgerResponse' },
          ...refusals('forbidden_scope'),
        },
      },
      handle(req, { query }) {
        return jsonReply(200, getLedger(svc, requireCaller(req), query), noStore);
      },
    }),
  ];
}
