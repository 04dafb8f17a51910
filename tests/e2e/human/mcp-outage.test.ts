/**
 * An MCP tool call the database cannot serve costs the agent nothing, as a REST request refused with
 * 503 does (issue 28's rule, tests/e2e/outages.test.ts): the tool answers service_unavailable with
 * retry_after_s, never SQLite's own words; the call's count is given back (the next result's
 * `_meta` and the response headers show it); nothing is stored; the access line and /readyz name the
 * database. With the official SDK client over real HTTP; the connection is switched to query_only, so
 * every write fails with SQLITE_READONLY as a file made read-only under a running server does.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHumanServer, verifyOrder, type HumanServer } from './harness.ts';
import { until } from '../../helpers/until.ts';

let server: HumanServer;
let client: Client;
let lastHeaders: Headers | undefined;
before(async () => {
  server = await startHumanServer();
  client = new Client({ name: 'trio-outage-test', version: '1.0.0' });
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.headers.has('x-ratelimit-remaining')) lastHeaders = res.headers;
    return res;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/human/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${server.account('test').key}` } },
      fetch: recording,
    }),
  );
});
after(async () => {
  await client.close();
  await server.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Result = { isError?: boolean; structuredContent?: any; content: Array<any>; _meta?: Record<string, any> };
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;
const remainingOf = (r: Result) => r._meta!['trio/rate_limit'].remaining as number;
const tasks = () => server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get() as number;
const logged = () => server.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

test('a tool call refused by the database: service_unavailable, not counted, nothing stored, the cause logged', async () => {
  // Both calls in the same minute window of the test clock.
  server.clock.set(new Date(Math.floor(server.clock.ms / 60_000) * 60_000 + 60_000).toISOString());
  const before = remainingOf(await call('get_balance'));
  const stored = tasks();

  server.app.db.pragma('query_only = ON');
  try {
    for (let i = 0; i < 3; i++) {
      const refused = await call('create_task', { idempotency_key: randomUUID(), ...verifyOrder() });
      assert.equal(refused.isError, true, JSON.stringify(refused).slice(0, 300));
      const error = JSON.parse(refused.content[0].text).error;
      assert.equal(error.code, 'service_unavailable');
      assert.match(error.message, /nothing was stored/);
      assert.equal(error.retry_after_s, 5);
      assert.doesNotMatch(refused.content[0].text, /SQLITE|readonly database/i, "SQLite's words stay in the log");
      assert.equal(
        lastHeaders?.get('x-ratelimit-remaining'),
        String(before),
        'the response shows the allowance as it was',
      );
    }
    const ready = await server.get('/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.json.dependencies.database.refused, 3, '/readyz counts the refused calls');
  } finally {
    server.app.db.pragma('query_only = OFF');
  }
  assert.equal(tasks(), stored, 'nothing stored');
  assert.equal(remainingOf(await call('get_balance')), before - 1, 'three refused calls cost nothing: only this one');

  const lines = logged().filter((l) => l.msg === 'request' && l.path === '/human/v1/mcp' && l.refused === 'database');
  assert.equal(lines.length, 3, 'each refused call names its cause on its access line');
  assert.ok(!logged().some((l) => l.level === 50), 'no fault logged');
  await until(async () => (await server.get('/readyz')).status === 200, 'ready again once writes work');
});
