/**
 * How every MCP tool of the human service is registered: its arguments are validated by the service's
 * own validator (lib/human/inputs.ts validateInput), so an agent gets the message REST gives, naming the
 * argument and what it accepts in plain words, as a tool error with a code; the call counts one request
 * against the key's bucket (the one REST spends) and the result carries the bucket's state in `_meta`
 * (MCP_RATE_LIMIT_META); refusals of the service come back as tool results with isError and the REST
 * code. The SDK is given the schema's JSON Schema to advertise, and a validator that lets every
 * argument object through to ours (its own messages are valibot's: "Expected number but received …").
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { HttpError } from '../../lib/http/errors.ts';
import type { Refusal } from '../../lib/http/types.ts';
import { refusalError, refusalOf } from '../../lib/http/unavailable.ts';
import { validateInput } from '../../lib/human/validate-input.ts';
import type { Decision } from '../../lib/rate-limit.ts';
import { humanEdgeError } from './errors.ts';

/** A task ref argument, as every task tool takes it. */
export const ref = v.pipe(
  v.string(),
  v.regex(/^tsk_[0-9A-Za-z]{20}$/, 'a task ref: tsk_ followed by 20 letters and digits'),
  v.description('The task reference, tsk_… (from create_task or list_tasks).'),
);

/** The `_meta` key of a tool result carrying the rate-limit bucket's state after the call. */
const MCP_RATE_LIMIT_META = 'trio/rate_limit';

/** What a tool returns as structured content: the service's own values (object types, not interfaces). */
export type Structured = Record<string, unknown>;
type Content = Array<
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } }
>;
/** A tool's answer with content besides its structured content (also sent as JSON text): an image, a file. */
export class WithContent {
  constructor(
    readonly structured: Structured,
    readonly content: Content,
  ) {}
}

export interface ToolSpec<S extends v.GenericSchema> {
  title: string;
  description: string;
  input: S;
  output: v.GenericSchema;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

/** The schema's JSON Schema for tools/list, and a validator that defers to the tool's own. */
function advertised(schema: v.GenericSchema) {
  const standard = toStandardJsonSchema(schema as Parameters<typeof toStandardJsonSchema>[0]);
  return { '~standard': { ...standard['~standard'], validate: (value: unknown) => ({ value }) } };
}

const rateMeta = (d: Decision) =>
  d.minute
    ? {
        [MCP_RATE_LIMIT_META]: { limit: d.minute.limit, remaining: d.minute.remaining, reset_s: d.minute.resetSeconds },
      }
    : {};

/** A refusal as a tool result: the REST code and message (the same table), and retry_after_s when waiting helps. */
function toolError(err: HttpError) {
  const retry = err.headers['retry-after'];
  const error = {
    code: err.code,
    message: err.message,
    ...err.details,
    ...(retry !== undefined ? { retry_after_s: Number(retry) } : {}),
  };
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error }) }] };
}

export interface ToolHost {
  clock: () => number;
  /** Takes one request from the key's bucket; throws the 429 when it is empty. */
  count: (now: number) => Promise<Decision>;
  /** Gives back a counted call refused unserved (the database down or busy), and why. */
  giveBack: (now: number, refusal: Refusal) => void;
}

export function registerTool<S extends v.GenericSchema>(
  server: McpServer,
  host: ToolHost,
  name: string,
  spec: ToolSpec<S>,
  run: (args: v.InferOutput<S>, now: number) => Structured | WithContent | Promise<Structured | WithContent>,
): void {
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: advertised(spec.input),
      outputSchema: toStandardJsonSchema(spec.output as Parameters<typeof toStandardJsonSchema>[0]),
      annotations: { openWorldHint: false, destructiveHint: false, ...spec.annotations },
    },
    async (args: unknown) => {
      const now = host.clock();
      let counted = false;
      try {
        const decision = await host.count(now);
        counted = true;
        const input = validateInput(spec.input, args ?? {}, '', 'argument');
        const out = await run(input, now);
        const structured = out instanceof WithContent ? out.structured : out;
        return {
          content: [
            ...(out instanceof WithContent ? out.content : []),
            { type: 'text' as const, text: JSON.stringify(structured) },
          ],
          structuredContent: structured,
          _meta: rateMeta(decision),
        };
      } catch (thrown) {
        // The database could not serve the call: REST's 503, uncounted (a counter that could not be
        // reached counted nothing); never SQLite's own words to the agent.
        const refusal = refusalOf(thrown);
        if (refusal) {
          if (counted) host.giveBack(now, refusal);
          return toolError(refusalError(refusal));
        }
        const err = humanEdgeError(thrown);
        if (err instanceof HttpError) return toolError(err);
        throw err;
      }
    },
  );
}
