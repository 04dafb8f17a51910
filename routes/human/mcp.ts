/**
 * POST /human/v1/mcp: the task service's MCP server (Streamable HTTP, stateless), built with the
 * official TypeScript SDK v2 (`createMcpHandler`, a fetch-style handler: docs/decisions.md says why).
 * The access stage has already checked the key (401 unauthorized / key_revoked, exactly as REST) but
 * not counted the request: the tools count one request each, so protocol messages cost nothing and
 * REST and MCP share one bucket. Host and Origin are checked first, per the transport's security
 * guidance, so a web page cannot reach a local server through DNS rebinding.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { Decision } from '../../lib/rate-limit.ts';
import * as v from 'valibot';
import { forbiddenOrigin } from './errors.ts';
import type { HumanService } from '../../db/human/service.ts';
import { defineOperation } from '../../lib/http/operation.ts';
import type { ApiRequest, Refusal, Reply } from '../../lib/http/types.ts';
import { HttpError } from '../../lib/http/errors.ts';
import type { AppContext } from '../context.ts';
import { requireCaller, type HumanAccess } from './access.ts';
import { grantOf } from '../../lib/http/access.ts';
import { buildMcpServer } from './mcp-tools.ts';
import { ErrorBody } from './schemas.ts';
import { refusals } from './refusals.ts';
import type { HumanCaller } from '../../db/human/service.ts';

export const MCP_PATH = '/mcp';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]', '::1'];

/** The body the MCP transport (the SDK) refuses a malformed exchange with. */
const JsonRpcError = v.object({
  jsonrpc: v.literal('2.0'),
  id: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  error: v.object({ code: v.pipe(v.number(), v.integer()), message: v.string(), data: v.optional(v.unknown()) }),
});
/** What the transport hands each MCP server it builds: the caller, and how a tool call is counted. */
type McpCallerInfo = {
  caller: HumanCaller;
  /** Takes one request from the key's bucket, the one REST spends; throws the 429 when it is empty. */
  count: (now: number) => Promise<Decision>;
  /** Gives back a counted tool call that was refused unserved, and why. */
  giveBack: (now: number, refusal: Refusal) => void;
};

const transportError = (description: string) => ({ description, schema: v.union([ErrorBody, JsonRpcError]) });

/** The host names requests may name: ALLOWED_HOSTS, or loopback names when listening on loopback. */
export function allowedHostNames(config: AppContext['config']): string[] | null {
  if (config.allowedHosts.length) return config.allowedHosts;
  return LOOPBACK_NAMES.includes(config.host) ? LOOPBACK_NAMES : null; // null: any host (not on loopback)
}

const hostName = (hostHeader: string) =>
  (hostHeader.startsWith('[')
    ? hostHeader.slice(0, hostHeader.indexOf(']') + 1)
    : hostHeader.split(':')[0]!
  ).toLowerCase();

function checkHostAndOrigin(req: ApiRequest, allowed: string[] | null): void {
  if (allowed === null) return;
  const host = req.headers.host;
  if (typeof host !== 'string' || !allowed.includes(hostName(host))) {
    throw forbiddenOrigin(
      `Host '${String(host).slice(0, 80)}' is not one this server answers MCP for (ALLOWED_HOSTS).`,
    );
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let name = '';
    try {
      name = new URL(origin).host;
    } catch {
      // an opaque or malformed origin ('null'): refused below
    }
    if (!name || !allowed.includes(hostName(name)))
      throw forbiddenOrigin(`Origin '${origin.slice(0, 80)}' may not call this MCP server.`);
  }
}

/**
 * The SDK warns on console (stderr) when it is built in JSON response mode, a line that is not one of
 * our JSON log lines; it goes to the log instead, at debug (nothing but the logs is printed).
 */
function quietly<T>(log: AppContext['log'], build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => log.debug({ sdk: args.map(String).join(' ') }, 'mcp sdk notice');
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

export function mcpOperation(ctx: AppContext, svc: HumanService, access: HumanAccess) {
  const handler = quietly(ctx.log, () =>
    createMcpHandler(
      ({ authInfo }) => {
        const { caller, count, giveBack } = authInfo?.extra as McpCallerInfo;
        return buildMcpServer(ctx, svc, caller, { clock: ctx.clock, count, giveBack });
      },
      { responseMode: 'json', onerror: (err) => ctx.log.warn({ err: err.message }, 'mcp request refused') },
    ),
  );
  const allowed = allowedHostNames(ctx.config);
  return defineOperation({
    spec: {
      method: 'POST',
      path: MCP_PATH,
      operationId: 'mcp',
      summary:
        'MCP server (Streamable HTTP, stateless) for agents: the same tools, keys, rules and rate-limit bucket as REST',
      description:
        'JSON-RPC messages of the Model Context Protocol (revisions 2026-07-28 and 2025). Tools: list_capabilities, get_capability, get_coverage, quote_task, create_task, list_tasks, get_task, get_task_result, get_task_evidence, get_evidence_file, list_task_events, list_events, cancel_task, dispute_task, get_balance, list_ledger. Each tool call counts as one request against the key\'s bucket; a response to tool calls carries X-RateLimit-* for the bucket after the last one, and each tool result its _meta["trio/rate_limit"]. Protocol messages (initialize, tools/list) are not counted.',
      body: v.record(v.string(), v.unknown()),
      // A key is needed (401 without one, as REST); each tool checks its own scope (a tool error, not an HTTP one).
      security: [{ bearer: [] }, { apiKey: [] }],
      responses: {
        200: {
          description:
            'A JSON-RPC response: application/json for requests of the 2026-07-28 revision; for 2025-era requests (no protocol revision in the message) the SDK frames it as one SSE `message` event whose data is the same JSON-RPC response, as the Streamable HTTP transport allows',
          schema: v.record(v.string(), v.unknown()),
          alternatives: {
            'text/event-stream': {
              schema: { type: 'string', description: 'event: message, data: the JSON-RPC response' },
            },
          },
        },
        202: { description: 'A notification, accepted' },
        // The MCP transport refuses a malformed exchange itself, with a JSON-RPC error object (its spec's shape).
        400: transportError(
          'invalid_request (a malformed key header, an unknown query parameter), or from the MCP transport a JSON-RPC error: parse error (-32700), invalid request (-32600), unsupported protocol revision',
        ),
        406: {
          description:
            'From the MCP transport: Accept must include both application/json and text/event-stream (a JSON-RPC error)',
          schema: JsonRpcError,
        },
        415: transportError(
          'unsupported_media_type, or from the MCP transport a JSON-RPC error: bodies are application/json',
        ),
        ...refusals('forbidden_origin', 'payload_too_large'),
      },
    },
    // The MCP transport reads the body and refuses a malformed one in JSON-RPC's shape; the router has
    // refused unknown query parameters (SPEC "Errors": everywhere).
    ownBody: true,
    async handle(req): Promise<Reply> {
      checkHostAndOrigin(req, allowed);
      const caller = requireCaller(req, 'mcp');
      const grant = grantOf(req)!; // requireCaller found its key
      // The bucket's state after the last tool call of this request, for the accounting headers.
      let last: Decision | undefined;
      const count = async (now: number) => {
        try {
          return (last = await access.take(grant, now));
        } catch (err) {
          if (err instanceof HttpError) last = undefined;
          throw err;
        }
      };
      // A tool call the database refused (a 503 REST would answer) costs nothing, as on REST: its count
      // is given back, and the access line and the dependency's state name the cause (lib/http/unavailable.ts).
      const giveBack = (now: number, refusal: Refusal) => {
        req.refused = refusal;
        access.giveBack(grant, now);
        const minute = last?.minute;
        if (minute) last = { ...last!, minute: { ...minute, remaining: Math.min(minute.limit, minute.remaining + 1) } };
      };
      const extra: McpCallerInfo = { caller, count, giveBack };
      const response = await handler.fetch(await req.toWebRequest(), {
        authInfo: { token: 'ho_…', clientId: `key:${caller.keyId}`, scopes: [...caller.scopes], extra: { ...extra } },
      });
      // The body first: the SDK answers before its tool calls settle, and they set `last`.
      const body = Buffer.from(await response.arrayBuffer());
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      if (last?.minute) {
        headers['x-ratelimit-limit'] = String(last.minute.limit);
        headers['x-ratelimit-remaining'] = String(last.minute.remaining);
        headers['x-ratelimit-reset'] = String(last.minute.resetSeconds);
      }
      return { status: response.status, headers, body };
    },
  });
}
