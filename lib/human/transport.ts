/**
 * How a message names the next call, on the transport the client is using: a REST path for REST, a
 * tool name for MCP (issue 26: an agent told to call "GET /balance" cannot; it can call get_balance).
 * Messages of the service's rules say what to do next through `next(transport, what)`. Pure.
 */

export type Transport = 'rest' | 'mcp';

const NAMES = {
  quote: ['POST /quote', 'quote_task'],
  coverage: ['GET /coverage', 'get_coverage'],
  capabilities: ['GET /capabilities', 'list_capabilities'],
  capability: ['GET /capabilities/{capability}', 'get_capability'],
  balance: ['GET /balance', 'get_balance'],
  ledger: ['GET /ledger', 'list_ledger'],
  order: ['POST /tasks', 'create_task'],
  tasks: ['GET /tasks', 'list_tasks'],
  task: ['GET /tasks/{ref}', 'get_task'],
  result: ['GET /tasks/{ref}/result', 'get_task_result'],
  events: ['GET /tasks/{ref}/events', 'list_task_events'],
  idempotencyKey: ['the Idempotency-Key header', 'idempotency_key'],
} as const;

export type NextCall = keyof typeof NAMES;

export const next = (transport: Transport, what: NextCall): string => NAMES[what][transport === 'rest' ? 0 : 1];
