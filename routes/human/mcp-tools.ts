/**
 * The MCP tools of the human task service: what the REST API does, under snake_case names, with the
 * same valibot schemas for input and output, calling the same service functions (so the same rules,
 * the same idempotency store and the same ledger). Descriptions are written for an agent: what the
 * tool does, what to call next, by tool name. Registration, validation, counting and refusals are
 * mcp-tool.ts's; the account tools (balance, ledger, evidence bytes, events) are mcp-account-tools.ts's.
 */
import { McpServer } from '@modelcontextprotocol/server';
import * as v from 'valibot';
import { notFound } from '../../lib/human/errors.ts';
import { CancelBody, DisputeBody, ListInput, MCP_INPUTS } from '../../lib/human/inputs.ts';
import { createOrder, quoteTask } from '../../db/human/orders.ts';
import type { HumanCaller, HumanService } from '../../db/human/service.ts';
import { cancelTask, disputeTask } from '../../db/human/task-actions.ts';
import { getResult, getTask, listTasks } from '../../db/human/tasks-read.ts';
import type { AppContext } from '../context.ts';
import { catalogueViews, coverageNow } from './catalogue.ts';
import { registerAccountTools } from './mcp-account-tools.ts';
import { ref, registerTool, type ToolHost } from './mcp-tool.ts';
import { Capability, Coverage, QuoteResponse, ResultResponse, Task } from './schemas.ts';

/** The longest get_task_result may wait for an answer, in seconds. */
export const MAX_WAIT_S = 30;

/** What the server tells an agent at initialize: how the tools fit together. */
export const INSTRUCTIONS = `Order tasks done by verified people (check a claim on site, photograph a place, check a document), and collect their answers and evidence.
Typical flow: list_capabilities (what can be done, each spec's JSON Schema) → quote_task (exact price, and whether people are available there now) → create_task with a new idempotency_key (a UUID; retrying with the same key and arguments never orders twice) and max_price_cents → get_task_result with wait_s until answer is set (or poll no sooner than poll_after_s) → get_task_evidence and get_evidence_file for the photos and documents → dispute_task within 72 hours if the answer is wrong.
A ho_test_ key runs the sandbox: nothing is paid, nobody is sent, and magic values in the spec (e.g. claim "sandbox:fail") rehearse every outcome. A ho_live_ key holds the price on the prepaid balance (get_balance, list_ledger) and offers the task to verified people; a live order where nobody is available now is refused (no_one_available, with alternatives), and one nobody accepts in time expires early with its hold released.
Refusals are tool results with isError and a JSON {"error": {"code", "message"}}: the message says what to fix or what to call next. Every tool call counts against the key's per-minute limit (shared with the REST API); each result's _meta["trio/rate_limit"] shows what is left.`;

export function buildMcpServer(ctx: AppContext, svc: HumanService, caller: HumanCaller, host: ToolHost): McpServer {
  // Stateless: the tool list never changes during a session, so listChanged is not offered.
  const server = new McpServer(
    { name: 'trio-human-tasks', version: '1.1.0' },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const views = catalogueViews(svc);
  const readOnly = { readOnlyHint: true, idempotentHint: true };

  registerTool(
    server,
    host,
    'list_capabilities',
    {
      title: 'List capabilities',
      description:
        'Every kind of task people can do (human.verify, human.photo, human.document_check), with the JSON Schema of its spec (what create_task sends) and of its result (what get_task_result returns), prices per city and SLA, and live cities. Start here; then quote_task.',
      input: v.strictObject({}),
      output: v.object({ capabilities: v.array(Capability) }),
      annotations: readOnly,
    },
    () => ({ capabilities: [...views().capabilities.values()] }),
  );

  registerTool(
    server,
    host,
    'get_capability',
    {
      title: 'Get a capability',
      description:
        'One capability by id: the JSON Schemas of its spec and result, its evidence rule, prices and cities. Use it to build the spec argument of create_task.',
      input: v.strictObject({
        capability: v.pipe(
          v.string(),
          v.regex(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/, 'a capability id such as human.verify'),
          v.description('A capability id, e.g. human.verify (list_capabilities lists them).'),
        ),
      }),
      output: Capability,
      annotations: readOnly,
    },
    (args) => {
      const found = views().capabilities.get(args.capability);
      if (!found) throw notFound(`No capability '${args.capability}'. list_capabilities lists them.`, 'capability');
      return found;
    },
  );

  registerTool(
    server,
    host,
    'get_coverage',
    {
      title: 'Get coverage',
      description:
        'Live cities by country, what each serves under which SLA, and per SLA whether verified people are available now (availability.available_now, people as a band, accept_within_s). A live order where nobody is available is refused; pick a city where someone is, then quote_task.',
      input: v.strictObject({}),
      output: Coverage.entries.data,
      annotations: { readOnlyHint: true },
    },
    (_args, now) => coverageNow(views().coverageData, svc.available(now)),
  );

  registerTool(
    server,
    host,
    'quote_task',
    {
      title: 'Quote a task',
      description:
        'The exact price in cents, the due time, a quote_id that holds the price 15 minutes (pass it to create_task), and availability: whether verified people are available there now (if not, alternatives lists the nearest cities where someone is, and a live create_task there would be refused with no_one_available). Or a refusal (status "refused": location_not_served, sla_not_served) with alternatives that are served. Orders nothing.',
      input: MCP_INPUTS.QuoteBody,
      output: QuoteResponse.entries.data,
      annotations: { readOnlyHint: true },
    },
    (args, now) => quoteTask(svc, args, now),
  );

  registerTool(
    server,
    host,
    'create_task',
    {
      title: 'Order a task',
      description:
        'Orders a task; needs tasks:write. idempotency_key (a UUID you make) makes retries safe: the same key and arguments return the same task, also if it was first ordered over REST with that Idempotency-Key and body; the same key with other arguments is refused (idempotency_key_reused). A live key holds the price on the prepaid balance (insufficient_balance: see get_balance) and needs someone available (no_one_available: see its alternatives, or get_coverage); a test key runs the sandbox. metadata and client_reference are your own labels, echoed back and usable as list_tasks filters. Then call get_task_result with wait_s, or wait poll_after_s between calls.',
      input: v.strictObject({
        idempotency_key: v.pipe(
          v.string(),
          v.description('A UUID, new for each new order; send the same one only to retry the same order.'),
        ),
        ...MCP_INPUTS.OrderBody.entries,
      }),
      output: Task,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ idempotency_key, ...body }, now) => (await createOrder(svc, caller, idempotency_key, body, now)).task,
  );

  registerTool(
    server,
    host,
    'list_tasks',
    {
      title: 'List tasks',
      description:
        "Your tasks in this key's environment, newest first: filter by status (one or a list), capability, client_reference, one metadata key and value, and creation time; page with cursor (next_cursor of the previous call). get_task reads one.",
      input: ListInput,
      output: v.object({ tasks: v.array(Task), next_cursor: v.nullable(v.string()) }),
      annotations: readOnly,
    },
    (args, now) => {
      const { data, meta } = listTasks(svc, caller, args, now);
      return { tasks: data, next_cursor: meta.next_cursor };
    },
  );

  registerTool(
    server,
    host,
    'get_task',
    {
      title: 'Get a task',
      description:
        'One of your tasks: its state, price, times, metadata, why it ended (cancellation, failure, expiry), and poll_after_s. list_task_events shows its history; get_task_result its answer.',
      input: v.strictObject({ ref }),
      output: Task,
      annotations: readOnly,
    },
    (args, now) => getTask(svc, caller, args.ref, now),
  );

  registerTool(
    server,
    host,
    'get_task_result',
    {
      title: "Get a task's result",
      description: `The answer and confidence_bps once delivered (then get_task_evidence lists the evidence). Until then it returns at once with the state and poll_after_s; with wait_s (at most ${MAX_WAIT_S}) it waits up to that long for the answer. Counts as one call either way. If the task ended without an answer (cancelled, failed, expired), poll_after_s is null: get_task says why.`,
      input: v.strictObject({
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
      output: ResultResponse.entries.data,
      annotations: readOnly,
    },
    async (args) => {
      const until = Date.now() + (args.wait_s ?? 0) * 1000;
      for (;;) {
        const result = getResult(svc, caller, args.ref, ctx.clock());
        if (result.answer !== null || result.poll_after_s === null || Date.now() >= until) return result;
        await new Promise((resolve) => setTimeout(resolve, Math.min(250, until - Date.now())));
      }
    },
  );

  registerTool(
    server,
    host,
    'cancel_task',
    {
      title: 'Cancel a task',
      description:
        "Cancels a task that is pending or dispatched (nobody has started it); needs tasks:write. A live task's hold is released in full. Refused with invalid_state once work has started (get_task shows the state).",
      input: v.strictObject({ ref, ...CancelBody.entries }),
      output: Task,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    },
    ({ ref: taskRef, ...body }, now) => cancelTask(svc, caller, taskRef, body, now),
  );

  registerTool(
    server,
    host,
    'dispute_task',
    {
      title: 'Dispute a delivered answer',
      description:
        "Disputes a delivered answer before the task's dispute_deadline (72 hours after delivery), with a reason and a statement of 20 to 2000 characters; needs tasks:write. The hold stays until an operator decides (the answer stands, or a refund); get_task shows the resolution. After the deadline it is refused (invalid_state, saying the window closed).",
      input: v.strictObject({ ref, ...DisputeBody.entries }),
      output: Task,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    ({ ref: taskRef, ...body }, now) => disputeTask(svc, caller, taskRef, body, now),
  );

  registerAccountTools(server, host, svc, caller);
  return server;
}
