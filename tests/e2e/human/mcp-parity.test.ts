/**
 * MCP parity with REST (issue 26), with the official SDK client over real HTTP: the balance, the
 * ledger, the evidence bytes (as image content, checked against the evidence's SHA-256), a task's
 * events and the account's log give what REST gives; the server's instructions and capabilities;
 * every argument described; errors in plain words that name tools, never REST paths; the rate-limit
 * state in each result and in the response headers; and nothing but log lines from a served process.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createAccount, createKey } from '../../../db/accounts.ts';
import { openDatabase } from '../../../db/connection.ts';
import { startServeProcess } from '../../helpers/serve-process.ts';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
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

async function connect(key: string, url = `${server.url}/human/v1/mcp`): Promise<Client> {
  const client = new Client({ name: 'trio-parity-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result = { isError?: boolean; structuredContent?: any; content: Array<any>; _meta?: Record<string, any> };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;
const errorOf = (r: Result) => {
  assert.equal(r.isError, true, JSON.stringify(r).slice(0, 300));
  return JSON.parse(r.content[0].text).error as { code: string; message: string; retry_after_s?: number };
};
const nextMinute = () =>
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());

test('instructions, and only the capabilities served (tools, no listChanged)', async () => {
  const client = await connect(server.account('test').key);
  const instructions = client.getInstructions() ?? '';
  for (const tool of [
    'list_capabilities',
    'quote_task',
    'create_task',
    'get_task_result',
    'get_evidence_file',
    'get_balance',
  ])
    assert.ok(instructions.includes(tool), `instructions name ${tool}`);
  const caps = client.getServerCapabilities() ?? {};
  assert.deepEqual(Object.keys(caps).sort(), ['tools']);
  assert.notEqual(caps.tools?.listChanged, true);
});

test('every argument of every tool is described', async () => {
  const { tools } = await (await connect(server.account('test').key)).listTools();
  for (const tool of tools) {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
    for (const [name, schema] of Object.entries(properties))
      assert.ok((schema.description ?? '').length > 10, `${tool.name}.${name} has a description`);
  }
});

test('balance, ledger, task events and the event log give what REST gives', async () => {
  nextMinute();
  const buyer = server.account('live', { balance: 7_000 });
  const client = await connect(buyer.key);
  const ordered = await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() });
  assert.equal(ordered.isError, undefined, JSON.stringify(ordered));
  const ref = ordered.structuredContent.ref;
  const rest = (path: string) => server.call('GET', path, buyer.key).then((r) => r.json);
  assert.deepEqual((await call(client, 'get_balance')).structuredContent, (await rest('/balance')).data);
  const balance = (await call(client, 'get_balance')).structuredContent;
  assert.deepEqual(
    [balance.available_cents, balance.held_cents],
    [7_000 - ordered.structuredContent.price_cents, ordered.structuredContent.price_cents],
  );
  const ledger = await call(client, 'list_ledger', { limit: 1 });
  const restLedger = await rest('/ledger?limit=1');
  assert.deepEqual(ledger.structuredContent.entries, restLedger.data);
  assert.equal(ledger.structuredContent.next_cursor, restLedger.meta.next_cursor);
  const older = await call(client, 'list_ledger', { cursor: ledger.structuredContent.next_cursor });
  assert.deepEqual(older.structuredContent.entries, (await rest(`/ledger?cursor=${restLedger.meta.next_cursor}`)).data);
  assert.deepEqual(
    (await call(client, 'list_task_events', { ref })).structuredContent.events,
    (await rest(`/tasks/${ref}/events`)).data,
  );
  assert.deepEqual(
    (await call(client, 'list_events', { task: ref })).structuredContent.events,
    (await rest(`/events?task=${ref}`)).data,
  );
  await call(client, 'cancel_task', { ref });
});

test("get_evidence_file: a photo's bytes as image content, matching the evidence's SHA-256", async () => {
  nextMinute();
  const buyer = server.account('test');
  const client = await connect(buyer.key);
  const ref = (await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() })).structuredContent
    .ref;
  await advance(server, 3 * D);
  const items = (await call(client, 'get_task_evidence', { ref })).structuredContent.evidence;
  const photo = items.find((e: { type: string }) => e.type === 'photo');
  const file = await call(client, 'get_evidence_file', { ref, evidence_id: photo.id });
  assert.equal(file.isError, undefined, JSON.stringify(file).slice(0, 300));
  const image = file.content.find((c) => c.type === 'image');
  assert.equal(image.mimeType, 'image/png');
  const bytes = Buffer.from(image.data, 'base64');
  assert.equal(createHash('sha256').update(bytes).digest('hex'), photo.sha256);
  assert.equal(bytes.length, photo.size_bytes);
  assert.deepEqual(file.structuredContent.sha256, photo.sha256);
  const rest = await server.call('GET', `/tasks/${ref}/evidence/${photo.id}`, buyer.key);
  assert.equal(Buffer.compare(rest.bytes, bytes), 0, 'the same bytes as REST');
  const note = items.find((e: { type: string }) => e.type === 'note');
  assert.equal(errorOf(await call(client, 'get_evidence_file', { ref, evidence_id: note.id })).code, 'not_found');
});

test('errors in plain words that name tools and arguments, never REST paths or statuses', async () => {
  nextMinute();
  const poor = server.account('live', { balance: 100 });
  const client = await connect(poor.key);
  const errors = [
    errorOf(await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder() })),
    errorOf(await call(client, 'create_task', { idempotency_key: 'not-a-uuid', ...verifyOrder() })),
    errorOf(
      await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder({ max_price_cents: 5 }) }),
    ),
    errorOf(
      await call(client, 'create_task', { idempotency_key: randomUUID(), ...verifyOrder({ max_price_cents: '2000' }) }),
    ),
    errorOf(
      await call(client, 'create_task', {
        idempotency_key: randomUUID(),
        ...verifyOrder({ location: { country_iso: 'IT', city_slug: 'rome' } }),
      }),
    ),
    errorOf(await call(client, 'list_tasks', { colour: 'blue' })),
    errorOf(await call(client, 'get_task', { ref: 'tsk_nope' })),
    errorOf(await call(client, 'get_capability', { capability: 'human.nope' })),
    errorOf(
      await call(client, 'quote_task', {
        capability: 'human.verify',
        location: { country_iso: 'fr', city_slug: 'paris' },
      }),
    ),
  ];
  assert.deepEqual(
    errors.map((e) => e.code),
    [
      'insufficient_balance',
      'idempotency_key_required',
      'price_above_max',
      'invalid_request',
      'location_not_served',
      'invalid_request',
      'invalid_request',
      'not_found',
      'invalid_request',
    ],
  );
  assert.match(errors[0]!.message, /get_balance shows what is available/);
  assert.match(errors[1]!.message, /idempotency_key must be a UUID/);
  assert.match(errors[2]!.message, /quote_task gives the price first/);
  assert.equal(
    errors[3]!.message,
    `Invalid argument 'max_price_cents': give a whole number from 1 to 10,000,000 (got the text "2000").`,
  );
  assert.match(errors[4]!.message, /quote_task lists the same alternatives/);
  assert.match(errors[5]!.message, /^Unknown argument 'colour'\. Accepted: status, capability/);
  assert.match(errors[6]!.message, /Invalid argument 'ref': give a task ref: tsk_ followed by 20 letters and digits/);
  assert.match(errors[7]!.message, /list_capabilities lists them/);
  assert.match(errors[8]!.message, /Invalid argument 'location.country_iso': give two upper-case letters/);
  for (const e of errors) {
    assert.doesNotMatch(
      e.message,
      /\b(GET|POST|DELETE) \/|\b(400|402|404|409|422)\b|Idempotency-Key|Expected|received/,
      e.message,
    );
  }
});

test('each result carries the bucket it counted against; the response carries X-RateLimit-*', async () => {
  nextMinute();
  const buyer = server.account('test');
  const client = await connect(buyer.key);
  const a = (await call(client, 'get_balance'))._meta!['trio/rate_limit'];
  const b = (await call(client, 'list_capabilities'))._meta!['trio/rate_limit'];
  assert.equal(a.limit, 120);
  assert.equal(b.remaining, a.remaining - 1, 'one call, one request');
  // REST spends the same bucket.
  const restRemaining = Number((await server.call('GET', '/balance', buyer.key)).headers.get('x-ratelimit-remaining'));
  assert.equal(restRemaining, b.remaining - 1);
  // The raw HTTP response to a tools/call carries the headers (a 2025-era client: one SSE event or JSON).
  const raw = await fetch(`${server.url}/human/v1/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${buyer.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_balance', arguments: {} },
    }),
  });
  assert.equal(raw.status, 200, await raw.clone().text());
  assert.equal(raw.headers.get('x-ratelimit-limit'), '120');
  assert.equal(Number(raw.headers.get('x-ratelimit-remaining')), restRemaining - 1);
  assert.ok(Number(raw.headers.get('x-ratelimit-reset')) >= 0);
});

test('a served process prints nothing but its log lines (the SDK notice goes to the log)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trio-mcp-stdout-'));
  const path = join(dir, 'trio.sqlite');
  let output: string;
  const serve = await startServeProcess(
    ['--import', 'tsx', 'main.ts', 'serve'],
    { DATABASE_PATH: path, DEMO: 'off' },
    join(import.meta.dirname, '..', '..', '..'),
  );
  try {
    const db = openDatabase(path);
    const account = createAccount(db, 'stdout@example.org', Date.now());
    const key = createKey(
      db,
      { accountId: account.id, service: 'human', name: 'k', environment: 'test' },
      Date.now(),
    ).key;
    db.close();
    const client = await connect(key, `${serve.url}/human/v1/mcp`);
    await call(client, 'get_balance');
    await new Promise((resolve) => setTimeout(resolve, 100));
    output = serve.output(); // what it printed while serving (a stop prints its own line)
  } finally {
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  assert.match(output, /trio is serving/);
  assert.doesNotMatch(output, /responseMode/);
  for (const line of output.split('\n').filter(Boolean))
    assert.ok(line.startsWith('{') || /^trio is serving at /.test(line), `a log line: ${line.slice(0, 120)}`);
});
