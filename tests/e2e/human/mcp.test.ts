/**
 * The MCP server at /human/v1/mcp with the official SDK client over real HTTP: every tool's happy path,
 * every refusal, one rate-limit bucket shared with REST, idempotency across transports, a sandbox task
 * ordered, collected and read over MCP, and the Host/Origin guard.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { revokeKey } from '../../../db/accounts.ts';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer();
});
after(() => server.cleanup());
checkLedgerAfterEach(() => server);

const clients: Client[] = [];
after(async () => {
  for (const c of clients) await c.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'trio-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/human/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result = { isError?: boolean; structuredContent?: any; content: Array<{ type: string; text?: string }> };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;
const errorOf = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r));
  return (JSON.parse(r.content[0]!.text!) as { error: { code: string; message: string; retry_after_s?: number } })
    .error;
};
const nextMinute = () =>
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());

test('the tools, snake_case, with input and output schemas and annotations', async () => {
  const client = await connect(server.account('test').key);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'cancel_task',
    'create_task',
    'dispute_task',
    'get_balance',
    'get_capability',
    'get_coverage',
    'get_evidence_file',
    'get_task',
    'get_task_evidence',
    'get_task_result',
    'list_capabilities',
    'list_events',
    'list_ledger',
    'list_task_events',
    'list_tasks',
    'quote_task',
  ]);
  for (const tool of tools) {
    assert.match(tool.name, /^[a-z]+(_[a-z]+)*$/);
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
    assert.ok((tool.description ?? '').length > 40, `${tool.name} tells an agent how to use it`);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.equal(byName.get('cancel_task')!.annotations?.destructiveHint, true);
  assert.equal(byName.get('list_tasks')!.annotations?.readOnlyHint, true);
  assert.ok((byName.get('create_task')!.inputSchema.required as string[]).includes('idempotency_key'));
});

describe('every tool, happy path, on a sandbox key', () => {
  test('catalogue and quote', async () => {
    nextMinute();
    const client = await connect(server.account('test').key);
    const caps = await call(client, 'list_capabilities');
    assert.ok(caps.structuredContent.capabilities.some((c: { id: string }) => c.id === 'human.verify'));
    const one = await call(client, 'get_capability', { capability: 'human.verify' });
    assert.equal(one.structuredContent.id, 'human.verify');
    assert.ok(one.structuredContent.spec_schema);
    const coverage = await call(client, 'get_coverage');
    assert.ok(coverage.structuredContent.countries.length > 0);
    const quote = await call(client, 'quote_task', {
      capability: 'human.verify',
      location: { country_iso: 'FR', city_slug: 'paris' },
      sla: 'standard',
    });
    assert.equal(quote.structuredContent.status, 'quoted');
    assert.ok(Number.isInteger(quote.structuredContent.price_cents));
    const refused = await call(client, 'quote_task', {
      capability: 'human.verify',
      location: { country_iso: 'FR', city_slug: 'nowhere' },
    });
    assert.equal(refused.structuredContent.status, 'refused');
    assert.ok(refused.structuredContent.alternatives.length > 0);
  });

  test('a sandbox task ordered over MCP completes; its result and evidence are read over MCP', async () => {
    nextMinute();
    const client = await connect(server.account('test').key);
    const created = await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() });
    assert.equal(created.isError, undefined, JSON.stringify(created));
    const ref = created.structuredContent.ref;
    assert.match(ref, /^tsk_/);
    assert.ok(Number.isInteger(created.structuredContent.poll_after_s));
    const early = await call(client, 'get_task_result', { ref });
    assert.equal(early.structuredContent.answer, null);
    assert.ok(early.structuredContent.poll_after_s > 0, 'returns at once with poll_after_s');
    await advance(server, 3 * SANDBOX_DELAY_MS);
    const result = await call(client, 'get_task_result', { ref, wait_s: 1 });
    assert.equal(result.structuredContent.status, 'delivered');
    assert.ok(result.structuredContent.answer);
    assert.ok(Number.isInteger(result.structuredContent.confidence_bps));
    const evidence = await call(client, 'get_task_evidence', { ref });
    assert.ok(evidence.structuredContent.evidence.length > 0);
    const task = await call(client, 'get_task', { ref });
    assert.equal(task.structuredContent.status, 'delivered');
    const listed = await call(client, 'list_tasks', { status: 'delivered' });
    assert.ok(listed.structuredContent.tasks.some((t: { ref: string }) => t.ref === ref));
    const disputed = await call(client, 'dispute_task', {
      ref,
      reason: 'wrong_answer',
      statement: 'The bakery was closed when I walked past on Sunday.',
    });
    assert.equal(disputed.structuredContent.status, 'disputed');
  });

  test('get_task_result waits for an answer when asked to', async () => {
    nextMinute();
    const client = await connect(server.account('test').key);
    const ref = (await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() }))
      .structuredContent.ref;
    setTimeout(() => void advance(server, 3 * SANDBOX_DELAY_MS), 300);
    const started = Date.now();
    const result = await call(client, 'get_task_result', { ref, wait_s: 5 });
    assert.equal(result.structuredContent.status, 'delivered');
    assert.ok(Date.now() - started < 5000, 'returned as soon as the answer existed');
  });

  test('cancel_task', async () => {
    nextMinute();
    const client = await connect(server.account('test').key);
    const ref = (
      await call(client, 'create_task', {
        idempotency_key: randomUUID(),
        ...verifyOrder({ spec: { claim: 'sandbox:stay_pending', subject: 'x' } }),
      })
    ).structuredContent.ref;
    const cancelled = await call(client, 'cancel_task', { ref, reason: 'no_longer_needed' });
    assert.equal(cancelled.structuredContent.status, 'cancelled');
    assert.equal(errorOf(await call(client, 'cancel_task', { ref })).code, 'invalid_state');
  });
});

describe('refusals', () => {
  const rawPost = (headers: Record<string, string>) =>
    fetch(`${server.url}/human/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  test('no key, an unknown key, a revoked key: 401 with the REST codes', async () => {
    nextMinute();
    const none = await rawPost({});
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'unauthorized');
    const forged = server.account('test').key.slice(0, -3) + 'zzz';
    const unknown = await rawPost({ authorization: `Bearer ${forged}` });
    assert.equal(unknown.status, 401);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'unauthorized');
    const { key } = server.account('test');
    const row = server.app.db
      .prepare('SELECT id FROM api_keys WHERE display_prefix = ?')
      .pluck()
      .get(key.slice(0, 12)) as number;
    revokeKey(server.app.db, row, server.clock.ms);
    const revoked = await rawPost({ 'x-api-key': key });
    assert.equal(revoked.status, 401);
    assert.equal(((await revoked.json()) as { error: { code: string } }).error.code, 'key_revoked');
    await assert.rejects(connect(forged), 'the SDK client cannot connect with a bad key');
  });

  test('a read-only key may read, but the write tools refuse with forbidden_scope', async () => {
    nextMinute();
    const client = await connect(server.account('test', { scopes: ['tasks:read'] }).key);
    assert.equal((await call(client, 'list_tasks')).isError, undefined);
    assert.equal(
      errorOf(await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() })).code,
      'forbidden_scope',
    );
    assert.equal(
      errorOf(await call(client, 'cancel_task', { ref: 'tsk_00000000000000000000' })).code,
      'forbidden_scope',
    );
    assert.equal(
      errorOf(
        await call(client, 'dispute_task', {
          ref: 'tsk_00000000000000000000',
          reason: 'other',
          statement: 'x'.repeat(30),
        }),
      ).code,
      'forbidden_scope',
    );
  });

  test('bad arguments and business refusals are tool errors with the REST codes; nothing is stored', async () => {
    nextMinute();
    const { key } = server.account('live', { balance: 100 });
    const client = await connect(key);
    const tasksBefore = server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get();
    const bad = await call(client, 'create_task', {
      idempotency_key: randomUUID(),
      ...verifyOrder({ spec: { claim: 42 } }),
    });
    assert.equal(bad.isError, true);
    assert.equal(
      errorOf(await call(client, 'create_task', { idempotency_key: 'not-a-uuid', ...verifyOrder() })).code,
      'idempotency_key_required',
      'as REST answers a malformed key',
    );
    assert.equal(
      errorOf(
        await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder({ max_price_cents: 1 }) }),
      ).code,
      'price_above_max',
    );
    assert.equal(
      errorOf(await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() })).code,
      'insufficient_balance',
    );
    assert.equal(errorOf(await call(client, 'get_task', { ref: 'tsk_00000000000000000000' })).code, 'not_found');
    assert.equal(errorOf(await call(client, 'get_capability', { capability: 'human.nothing' })).code, 'not_found');
    const extra = await call(client, 'list_tasks', { colour: 'blue' });
    assert.equal(extra.isError, true, 'unknown arguments are refused');
    assert.equal(server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get(), tasksBefore);
  });

  test('Host and Origin that are not ours are refused (DNS rebinding)', async () => {
    const { key } = server.account('test');
    const evilOrigin = await rawPost({ authorization: `Bearer ${key}`, origin: 'http://evil.example' });
    assert.equal(evilOrigin.status, 403);
    assert.equal(((await evilOrigin.json()) as { error: { code: string } }).error.code, 'forbidden_origin');
    // fetch will not send another Host: node:http will.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/human/v1/mcp`,
        {
          method: 'POST',
          headers: {
            host: 'evil.example',
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => (res.resume(), resolve(res.statusCode ?? 0)),
      );
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    });
    assert.equal(status, 403);
    const ownOrigin = await rawPost({ authorization: `Bearer ${key}`, origin: server.url });
    assert.notEqual(ownOrigin.status, 403);
  });
});

test("one bucket: 60 REST calls and 60 tool calls use the key's 120 a minute; the next of either is refused", async () => {
  nextMinute();
  const { key } = server.account('test');
  const client = await connect(key); // connecting and listing tools cost nothing
  for (let i = 0; i < 60; i++) assert.equal((await server.call('GET', '/tasks', key)).status, 200, `REST ${i}`);
  for (let i = 0; i < 60; i++) assert.equal((await call(client, 'list_tasks')).isError, undefined, `MCP ${i}`);
  const rest = await server.call('GET', '/tasks', key);
  assert.equal(rest.status, 429);
  assert.equal(rest.json.error.code, 'rate_limited');
  const mcp = errorOf(await call(client, 'list_tasks'));
  assert.equal(mcp.code, 'rate_limited');
  assert.ok(mcp.retry_after_s! >= 1 && mcp.retry_after_s! <= 60);
  nextMinute();
  assert.equal((await call(client, 'list_tasks')).isError, undefined, 'a new minute, a new allowance');
});

test('idempotency across transports: an order made over REST and replayed over MCP is the same task', async () => {
  nextMinute();
  const { key } = server.account('live', { balance: 10_000 });
  const idempotencyKey = randomUUID();
  const rest = await server.order(key, verifyOrder(), idempotencyKey);
  assert.equal(rest.status, 201);
  const client = await connect(key);
  const replay = await call(client, 'create_task', { idempotency_key: idempotencyKey, ...verifyOrder() });
  assert.equal(replay.structuredContent.ref, rest.json.data.ref);
  const other = errorOf(
    await call(client, 'create_task', { idempotency_key: idempotencyKey, ...verifyOrder({ max_price_cents: 2500 }) }),
  );
  assert.equal(other.code, 'idempotency_key_reused');
  const mcpFirst = randomUUID();
  const made = await call(client, 'create_task', { idempotency_key: mcpFirst, ...verifyOrder() });
  const again = await server.order(key, verifyOrder(), mcpFirst);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.json.data.ref, made.structuredContent.ref);
  assert.equal(
    server.app.db
      .prepare('SELECT count(*) FROM human_holds h JOIN human_tasks t ON t.id = h.task_id WHERE t.ref IN (?, ?)')
      .pluck()
      .get(rest.json.data.ref, made.structuredContent.ref),
    2,
    'charged once each',
  );
});
