/**
 * Browser clients on another origin (issue 26: the CORS preflight did not allow Mcp-Protocol-Version,
 * so a browser MCP client's tools/list was blocked after initialize). A page served from another port
 * runs, in Debian's Chromium, an MCP exchange (initialize, then tools/list and tools/call with the
 * transport's headers) and a web app's REST order (Idempotency-Key), reading the exposed headers; the
 * browser enforces CORS. Then the preflight's lists, and RFC 6750's challenges.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserMissing, launchBrowser } from '../../helpers/browser.ts';
import { BASE, startHumanServer, verifyOrder, type HumanServer } from './harness.ts';

const skip = browserMissing();
let server: HumanServer;
let browser: Browser | undefined;
let page: Server;
let origin = '';
before(async () => {
  server = await startHumanServer();
  page = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>agent</title>'),
  );
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => page.close(() => resolve()));
  await server.cleanup();
});

test(
  'a browser MCP client and a web app on another origin: every call gets through CORS',
  { skip: skip ?? false },
  async () => {
    const key = server.account('test').key;
    const tab = await browser!.newPage();
    await tab.goto(origin);
    // Plain JavaScript, run by the page as it is (tsx would add helpers the page does not have).
    const script = `(async ({ url, key, order }) => {
    const mcp = async (body, version) => {
      const res = await fetch(url + '/mcp', {
        method: 'POST',
        headers: Object.assign(
          { authorization: 'Bearer ' + key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          version ? { 'mcp-protocol-version': version } : {},
        ),
        body: JSON.stringify(body),
      });
      const text = await res.text();
      const json = text.startsWith('event:') ? JSON.parse(text.split('data: ')[1]) : JSON.parse(text);
      return { json, remaining: res.headers.get('x-ratelimit-remaining'), requestId: res.headers.get('x-request-id') };
    };
    const init = await mcp({ jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } } });
    const version = init.json.result.protocolVersion;
    const list = await mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, version);
    const called = await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_balance', arguments: {} } }, version);
    const ordered = await fetch(url + '/tasks', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify(order),
    });
    return {
      version,
      tools: list.json.result.tools.length,
      balance: called.json.result.structuredContent.environment,
      mcpRemaining: called.remaining,
      mcpRequestId: called.requestId,
      orderStatus: ordered.status,
      orderRemaining: ordered.headers.get('x-ratelimit-remaining'),
      location: ordered.headers.get('location'),
    };
  })(${JSON.stringify({ url: `${server.url}${BASE}`, key, order: verifyOrder() })})`;
    const outcome = (await tab.evaluate(script)) as {
      version: string;
      tools: number;
      balance: string;
      mcpRemaining: string | null;
      mcpRequestId: string | null;
      orderStatus: number;
      orderRemaining: string | null;
      location: string | null;
    };
    await tab.close();
    assert.equal(outcome.version, '2025-06-18');
    assert.equal(outcome.tools, 16);
    assert.equal(outcome.balance, 'sandbox');
    assert.match(outcome.mcpRemaining ?? '', /^\d+$/, 'the rate-limit headers are exposed');
    assert.ok(outcome.mcpRequestId);
    assert.equal(outcome.orderStatus, 201);
    assert.match(outcome.orderRemaining ?? '', /^\d+$/);
    assert.match(outcome.location ?? '', /^\/human\/v1\/tasks\/tsk_/);
  },
);

test('the preflight allows the headers browser clients send, and exposes those they read', async () => {
  const pre = await server.request('OPTIONS', `${BASE}/mcp`, {
    headers: {
      origin: 'http://127.0.0.1:9999',
      'access-control-request-method': 'POST',
      'access-control-request-headers':
        'authorization, content-type, mcp-protocol-version, mcp-session-id, last-event-id',
    },
  });
  assert.equal(pre.status, 204);
  const allowed = pre.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
  for (const h of [
    'authorization',
    'x-api-key',
    'content-type',
    'idempotency-key',
    'mcp-protocol-version',
    'mcp-session-id',
    'last-event-id',
    'if-none-match',
  ])
    assert.ok(allowed.includes(h), h);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  const exposed = pre.headers.get('access-control-expose-headers')!.toLowerCase().split(', ');
  for (const h of [
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-reset',
    'retry-after',
    'x-request-id',
    'idempotent-replayed',
    'location',
    'www-authenticate',
    'mcp-session-id',
  ])
    assert.ok(exposed.includes(h), h);
  assert.match(pre.headers.get('access-control-allow-methods')!, /POST/);
  const webhooks = await server.request('OPTIONS', `${BASE}/webhook_endpoints/we_00000000000000000000`, {
    headers: { origin: 'http://127.0.0.1:9999', 'access-control-request-method': 'DELETE' },
  });
  assert.match(webhooks.headers.get('access-control-allow-methods')!, /DELETE/);
});

test('WWW-Authenticate per RFC 6750: no error code without a credential; invalid_token, invalid_request, insufficient_scope', async () => {
  const readOnly = server.account('test', { scopes: ['tasks:read'] });
  const cases: Array<[string, string, Record<string, string>, number, string]> = [
    ['GET', '/tasks', {}, 401, 'Bearer realm="human"'],
    ['POST', '/mcp', {}, 401, 'Bearer realm="human"'],
    ['GET', '/tasks', { authorization: 'Bearer ho_test_nope' }, 401, 'Bearer realm="human", error="invalid_token"'],
    ['GET', '/tasks', { authorization: 'Basic abc' }, 401, 'Bearer realm="human", error="invalid_request"'],
    [
      'POST',
      '/tasks/tsk_00000000000000000000/cancel',
      { authorization: `Bearer ${readOnly.key}` },
      403,
      'Bearer realm="human", error="insufficient_scope", scope="tasks:write"',
    ],
  ];
  for (const [method, path, headers, status, challenge] of cases) {
    const res = await server.request(method, `${BASE}${path}`, { headers });
    assert.equal(res.status, status, `${method} ${path} ${JSON.stringify(headers)}`);
    assert.equal(res.headers.get('www-authenticate'), challenge, `${method} ${path} ${JSON.stringify(headers)}`);
  }
  const revoked = server.account('test');
  const { revokeKey } = await import('../../../db/accounts.ts');
  const id = server.app.db
    .prepare('SELECT id FROM api_keys WHERE account_id = ?')
    .pluck()
    .get(revoked.accountId) as number;
  revokeKey(server.app.db, id, server.clock.ms);
  const res = await server.request('GET', `${BASE}/tasks`, { headers: { authorization: `Bearer ${revoked.key}` } });
  assert.deepEqual(
    [res.status, res.headers.get('www-authenticate')],
    [401, 'Bearer realm="human", error="invalid_token"'],
  );
});
