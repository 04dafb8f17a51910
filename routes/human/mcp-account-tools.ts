/**
 * The MCP tools for money, evidence and history (issue 26: MCP does what REST does): the prepaid
 * balance and its ledger, a task's evidence list and each file's bytes (as MCP image content, or an
 * embedded resource for a PDF: an agent cannot fetch a REST path with its key), a task's events, and
 * the account's event log (what changed since the agent last looked).
 */
import type { McpServer } from '@modelcontextprotocol/server';
import * as v from 'valibot';
import type { HumanCaller, HumanService } from '../../db/human/service.ts';
import { getBalance, getEvidence, getEvidenceFile, getLedger, getTaskEvents } from '../../db/human/tasks-read.ts';
import { requireScope } from '../../db/human/service.ts';
import { listEvents } from '../../db/webhooks/events.ts';
import { ref, registerTool, WithContent, type ToolHost } from './mcp-tool.ts';
import { BalanceResponse, EvidenceList, LedgerResponse, TaskEventList } from './schemas.ts';
import { McpEvent } from './webhook-schemas.ts';

const cursorOf = (what: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[0-9]{1,15}$/, 'a next_cursor value from an earlier call'),
      v.description(`Continues ${what}: next_cursor of the previous call.`),
    ),
  );
const limitOf = (what: string, fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(100),
      v.description(`${what} per call, 1 to 100; default ${fallback}.`),
    ),
  );

export function registerAccountTools(server: McpServer, host: ToolHost, svc: HumanService, caller: HumanCaller): void {
  const readOnly = { readOnlyHint: true, idempotentHint: true };

  registerTool(
    server,
    host,
    'get_balance',
    {
      title: 'Get the prepaid balance',
      description:
        'What live orders can spend: available_cents, and held_cents (held for live tasks in progress). A live create_task holds its price here; insufficient_balance means available_cents is below the price (an operator tops it up). Sandbox keys always see zero. list_ledger shows every movement.',
      input: v.strictObject({}),
      output: BalanceResponse.entries.data,
      annotations: { readOnlyHint: true },
    },
    () => getBalance(svc, caller),
  );

  registerTool(
    server,
    host,
    'list_ledger',
    {
      title: 'List the ledger',
      description:
        'Every movement of the prepaid balance, newest first: credits (top-ups), holds (a live order), captures (a task completed and paid) and releases (cancelled, failed, expired or refunded), each with the task ref and the balances after it. Page with cursor.',
      input: v.strictObject({ limit: limitOf('Entries', 50), cursor: cursorOf('the ledger') }),
      output: v.object({ entries: LedgerResponse.entries.data, next_cursor: v.nullable(v.string()) }),
      annotations: readOnly,
    },
    (args) => {
      const { data, meta } = getLedger(svc, caller, args);
      return { entries: data, next_cursor: meta.next_cursor };
    },
  );

  registerTool(
    server,
    host,
    'get_task_evidence',
    {
      title: "Get a task's evidence",
      description:
        "The evidence of a delivered task: notes (their text is here), photos and documents with SHA-256, size, capture time and position (and where each came from). A photo's or document's bytes: get_evidence_file with the task's ref and the item's id.",
      input: v.strictObject({ ref }),
      output: v.object({ evidence: EvidenceList.entries.data }),
      annotations: readOnly,
    },
    (args) => ({ evidence: getEvidence(svc, caller, args.ref) }),
  );

  registerTool(
    server,
    host,
    'get_evidence_file',
    {
      title: 'Get an evidence file',
      description:
        'The bytes of one photo (as image content you can look at) or document (a PDF, as an embedded resource) of a task, with its SHA-256 to check them against get_task_evidence. Files are at most 5 MiB.',
      input: v.strictObject({
        ref,
        evidence_id: v.pipe(
          v.string(),
          v.regex(/^evd_\d{1,12}$/, 'an evidence id such as evd_12 (get_task_evidence lists them)'),
          v.description('The id of a photo or document item from get_task_evidence.'),
        ),
      }),
      output: v.object({
        id: v.string(),
        media_type: v.string(),
        sha256: v.string(),
        size_bytes: v.number(),
        uri: v.pipe(v.string(), v.description('Names the file in the resource content (trio://…).')),
      }),
      annotations: readOnly,
    },
    (args) => {
      const file = getEvidenceFile(svc, caller, args.ref, args.evidence_id);
      const uri = `trio://human/tasks/${args.ref}/evidence/${args.evidence_id}`;
      const data = file.bytes.toString('base64');
      return new WithContent(
        { id: args.evidence_id, media_type: file.media_type, sha256: file.sha256, size_bytes: file.bytes.length, uri },
        file.media_type.startsWith('image/')
          ? [{ type: 'image' as const, data, mimeType: file.media_type }]
          : [{ type: 'resource' as const, resource: { uri, mimeType: file.media_type, blob: data } }],
      );
    },
  );

  registerTool(
    server,
    host,
    'list_task_events',
    {
      title: "List a task's events",
      description:
        "A task's history, oldest first: every state it reached (created, dispatched, in_progress, delivered, completed, or how it ended), who moved it and when. Each id is the event that webhooks delivered (list_events shows the account's log).",
      input: v.strictObject({ ref }),
      output: v.object({ events: TaskEventList.entries.data }),
      annotations: readOnly,
    },
    (args) => ({ events: getTaskEvents(svc, caller, args.ref) }),
  );

  registerTool(
    server,
    host,
    'list_events',
    {
      title: "List the account's events",
      description:
        "Every event of your tasks in this key's environment, newest first, kept 30 days: each task state change (human.task.created, .dispatched, .delivered, .completed, .expired…) with the task as it was. To catch up on what changed since you last looked, page with cursor until an event id you have seen; filter by type (or a namespace such as human.task.*) or by task.",
      input: v.strictObject({
        type: v.optional(
          v.pipe(
            v.string(),
            v.regex(
              /^[a-z][a-z0-9_.]*(\.\*)?$/,
              'an event type such as human.task.delivered, or a namespace such as human.task.*',
            ),
            v.description('Only events of this type, or of this namespace (human.task.*).'),
          ),
        ),
        task: v.optional(v.pipe(ref, v.description("Only this task's events."))),
        limit: limitOf('Events', 20),
        cursor: cursorOf('the event log'),
      }),
      output: v.object({ events: v.array(McpEvent), next_cursor: v.nullable(v.string()) }),
      annotations: readOnly,
    },
    (args) => {
      requireScope(caller, 'tasks:read', 'listing events');
      const page = listEvents(
        svc.db,
        { accountId: caller.accountId, environment: caller.environment },
        {
          type: args.type,
          subject: args.task === undefined ? undefined : `task:${args.task}`,
          before: args.cursor === undefined ? undefined : Number(args.cursor),
          limit: args.limit ?? 20,
        },
      );
      return { events: page.data, next_cursor: page.next_cursor };
    },
  );
}
