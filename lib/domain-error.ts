/**
 * A refusal by a service's own rules (a task in the wrong state, a balance that does not cover the
 * price), thrown by `lib/<service>/` and `db/<service>/` whoever calls them: a REST handler, an MCP
 * tool, the CLI, the console. It carries a code from the service's closed union and a message for a
 * person; it knows nothing of HTTP. Each service's edge (routes/<service>/errors.ts) maps the code to
 * a status in one table; the CLI prints the message. A message never carries a key (cut to its prefix).
 */
import { redactKeys } from './keys.ts';

export class DomainError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    /** The input at fault, when there is one (a body field, a header). */
    readonly param?: string,
    /** Data the client acts on, shown beside the code and message (a refused order's alternatives). */
    readonly details?: Record<string, unknown>,
  ) {
    super(redactKeys(message));
  }
}
