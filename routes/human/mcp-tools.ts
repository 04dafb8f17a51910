/**
 * The MCP tools of the human task service: the REST operations under snake_case names, with the same
 * valibot schemas for input and output, calling the same service functions (so the same rules, the
 * same idempotency store and the same ledger). Every tool call takes one request from the key's
 * per-minute bucket, the one REST spends. Business refusals come back as tool results with isError and
 * the REST error code; protocol errors stay JSON-RPC errors (the SDK's).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { HttpError } from '../../lib/http/errors.ts';
import { notFound } from '../../lib/human/errors.ts';
import { CancelBody, DisputeBody, ListInput, OrderBody, QuoteBody } from '../../lib/human/inputs.ts';
import { createOrder, quoteTask } from '../../db/human/orders.ts';
import type { HumanCaller, HumanService } from '../../db/human/service.ts';
import { cancelTask, disputeTask } from '../../db/human/task-actions.ts';
import { getEvidence, getResult, getTask, listTasks } from '../../db/human/tasks-read.ts';
import type { AppContext } from '../context.ts';
import { catalogueViews } from './catalogue.ts';
import { humanEdgeError } from './errors.ts';
import { Capability, Coverage, EvidenceList, QuoteResponse, ResultResponse, Task } from './schemas.ts';

/** The longest get_task_result may wait for an answer, in seconds. */
export const MAX_WAIT_S = 30;

const ref = v.pipe(v.string(), v.description('The task reference, tsk_… (from create_task or list_tasks).'));

/** What a tool returns as structured content: the service's own values (object types, not interfaces). */
type Structured = Record<string, unknown>;

function textResult(structured: Structured) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A refusal as a tool result: the REST code and message (the same table), and retry_after_s when waiting helps. */
function toolError(err: HttpError) {
  const retry = err.headers['retry-after'];
  const error = {
    code: err.code,
    message: err.message,
    ...(retry !== undefined ? { retry_after_s: Number(retry) } : {}),
  };
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error }) }] };
}

export function buildMcpServer(
  ctx: AppContext,
  svc: HumanService,
  caller: HumanCaller,
  count: (now: number) => Promise<unknown>,
): McpServer {
  const server = new McpServer({ name: 'trio-human-tasks', version: '1.0.0' });
  const views = catalogueViews(svc);

  /** Counts the call against the key's bucket, runs it, and turns refusals into tool errors. */
  const call = (run: (now: number) => Structured | Promise<Structured>) => async () => {
    try {
      const now = ctx.clock();
      await count(now);
      return textResult(await run(now));
    } catch (thrown) {
      const err = humanEdgeError(thrown);
      if (err instanceof HttpError) return toolError(err);
      throw err;
    }
  };

  server.registerTool(
    'list_capabilities',
    {
      title: 'List capabilities',
      description:
        'Every kind of task people can do, with the JSON Schema of its spec and result, prices per city and SLA, and live cities. Start here; then quote_task.',
      inputSchema: toStandardJsonSchema(v.strictObject({})),
      outputSchema: toStandardJsonSchema(v.object({ capabilities: v.array(Capability) })),
      annotations: { readOnlyHint: true },
    },
    call(() => ({ capabilities: [...views().capabilities.values()] })),
  );

  server.registerTool(
    'get_capability',
    {
      title: 'Get a capability',
      description:
        'One capability by id (e.g. human.verify): its spec and result schemas, evidence rules, prices and cities.',
      inputSchema: toStandardJsonSchema(
        v.strictObject({ capability: v.pipe(v.string(), v.description('A capability id, e.g. human.verify.')) }),
      ),
      outputSchema: toStandardJsonSchema(Capability),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call(() => {
        const found = views().capabilities.get(args.capability);
        if (!found) throw notFound(`No capability '${args.capability}'. list_capabilities lists them.`);
        return found;
      })(),
  );

  server.registerTool(
    'get_coverage',
    {
      title: 'Get coverage',
      description: 'Live geographies: countries and cities, and which capabilities and SLAs each serves.',
      inputSchema: toStandardJsonSchema(v.strictObject({})),
      outputSchema: toStandardJsonSchema(Coverage.entries.data),
      annotations: { readOnlyHint: true },
    },
    call(() => views().coverageData),
  );

  server.registerTool(
    'quote_task',
    {
      title: 'Quote a task',
      description:
        'The exact price in cents, the due time and a quote that holds 15 minutes; or a refusal (status "refused") with alternatives that are served: other SLAs, nearest live cities. Orders nothing.',
      inputSchema: toStandardJsonSchema(QuoteBody),
      outputSchema: toStandardJsonSchema(QuoteResponse.entries.data),
      annotations: { readOnlyHint: true },
    },
    (args) => call((now) => quoteTask(svc, args, now))(),
  );

  server.registerTool(
    'create_task',
    {
      title: 'Order a task',
      description:
        'Orders a task; needs tasks:write. idempotency_key (a UUID you make) makes retries safe: the same key and arguments return the same task, also if it was first ordered over REST with that Idempotency-Key and body; the same key with other arguments is refused (idempotency_key_reused). A live key holds the price on the prepaid balance; a test key runs the sandbox. Then wait poll_after_s and call get_task_result.',
      inputSchema: toStandardJsonSchema(
        v.strictObject({
          idempotency_key: v.pipe(
            v.string(),
            v.description('A UUID, new for each new order; reuse it only to retry the same order.'),
          ),
          ...OrderBody.entries,
        }),
      ),
      outputSchema: toStandardJsonSchema(Task),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    ({ idempotency_key, ...body }) =>
      call(async (now) => {
        return (await createOrder(svc, caller, idempotency_key, body, now)).task;
      })(),
  );

  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description:
        "Your tasks in this key's environment, newest first; filter by status, capability and creation time; page with cursor.",
      inputSchema: toStandardJsonSchema(ListInput),
      outputSchema: toStandardJsonSchema(v.object({ tasks: v.array(Task), next_cursor: v.nullable(v.string()) })),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call((now) => {
        const { data, meta } = listTasks(svc, caller, args, now);
        return { tasks: data, next_cursor: meta.next_cursor };
      })(),
  );

  server.registerTool(
    'get_task',
    {
      title: 'Get a task',
      description: 'One of your tasks: its state, price, times, and poll_after_s.',
      inputSchema: toStandardJsonSchema(v.strictObject({ ref })),
      outputSchema: toStandardJsonSchema(Task),
      annotations: { readOnlyHint: true },
    },
    (args) => call((now) => getTask(svc, caller, args.ref, now))(),
  );

  server.registerTool(
    'get_task_result',
    {
      title: "Get a task's result",
      description: `The answer and confidence_bps once delivered. Until then it returns at once with the state and poll_after_s; with wait_s (at most ${MAX_WAIT_S}) it waits up to that long for the answer. Counts as one call either way.`,
      inputSchema: toStandardJsonSchema(
        v.strictObject({
          ref,
          wait_s: v.optional(
            v.pipe(
              v.number(),
              v.integer(),
              v.minValue(0),
              v.maxValue(MAX_WAIT_S),
              v.description(`Seconds to wait for an answer, 0 to ${MAX_WAIT_S}; default 0.`),
            ),
          ),
        }),
      ),
      outputSchema: toStandardJsonSchema(ResultResponse.entries.data),
      annotations: { readOnlyHint: true },
    },
    (args) =>
      call(async () => {
        const until = Date.now() + (args.wait_s ?? 0) * 1000;
        for (;;) {
          const result = getResult(svc, caller, args.ref, ctx.clock());
          if (result.answer !== null || Date.now() >= until) return result;
          await new Promise((resolve) => setTimeout(resolve, Math.min(250, until - Date.now())));
        }
      })(),
  );

  server.registerTool(
    'get_task_evidence',
    {
      title: "Get a task's evidence",
      description:
        'The evidence attached to a task: notes, photos and documents with SHA-256, size, capture time and position.',
      inputSchema: toStandardJsonSchema(v.strictObject({ ref })),
      outputSchema: toStandardJsonSchema(v.object({ evidence: EvidenceList.entries.data })),
      annotations: { readOnlyHint: true },
    },
    (args) => call(() => ({ evidence: getEvidence(svc, caller, args.ref) }))(),
  );

  server.registerTool(
    'cancel_task',
    {
      title: 'Cancel a task',
      description:
        "Cancels a task that is pending or dispatched (nobody has started it); needs tasks:write. A live task's hold is released. Refused with invalid_state once work has started.",
      inputSchema: toStandardJsonSchema(v.strictObject({ ref, ...CancelBody.entries })),
      outputSchema: toStandardJsonSchema(Task),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    ({ ref: taskRef, ...body }) => call((now) => cancelTask(svc, caller, taskRef, body, now))(),
  );

  server.registerTool(
    'dispute_task',
    {
      title: 'Dispute a delivered answer',
      description:
        'Disputes a delivered answer within 72 hours, with a reason and a statement; needs tasks:write. The hold stays until the dispute is resolved (answer stands, or refund).',
      inputSchema: toStandardJsonSchema(v.strictObject({ ref, ...DisputeBody.entries })),
      outputSchema: toStandardJsonSchema(Task),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    ({ ref: taskRef, ...body }) => call((now) => disputeTask(svc, caller, taskRef, body, now))(),
  );

  return server;
}
