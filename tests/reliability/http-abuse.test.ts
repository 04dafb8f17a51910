/**
 * Abuse of the HTTP layer (issue 8): oversized bodies and headers, slow and idle clients, malformed
 * JSON, wrong content types, a Host that is not ours, request-smuggling shapes and odd request lines.
 * Every shape gets a clean 4xx (in the service's error shape when the request reached a service; a
 * bare 400/413/431 from node's parser otherwise) or a closed connection, and while each abuse is in
 * progress a normal request (`GET /healthz` and a keyed impact read) is served.
 *
 * Bytes go out through a raw node:net client (abuse/raw-client.ts) so that what the server sees is
 * exactly what is written here. The server runs with the production code but short socket timeouts
 * (StartOptions.limits) so that slow and idle clients are timed out within a test's patience.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { accountWithKey } from '../helpers/keys.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { exchange, openIdle, RawConnection, type RawResponse } from './abuse/raw-client.ts';
import { DEFAULT_LIMITS } from '../../lib/http/server.ts';
import { bySize, LONG, recordFigures } from './size.ts';

// A hang (a socket nobody closes) fails its suite by name instead of stalling the run.
const SUITE_TIMEOUT_MS = bySize(120_000, 300_000);
const LIMITS = { headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000, checkIntervalMs: 250 };

let server: TestServer;
let port: number;
let impactKey: string;
let humanKey: string;
let taskRef: string;
let bodyLimit: number;
/** Slowest normal request seen while some abuse was in progress (ms), for the figures. */
let slowestNormal = 0;
const figures: Record<string, unknown> = {};

before(async () => {
  server = await startTestServer({ limits: LIMITS });
  port = server.app.port;
  bodyLimit = server.app.ctx.config.bodyLimitBytes;
  impactKey = accountWithKey(server.app.db, 'impact', server.clock.ms).key;
  humanKey = accountWithKey(server.app.db, 'human', server.clock.ms, { environment: 'test' }).key;
  const order = await server.request('POST', '/human/v1/tasks', {
    headers: {
      authorization: `Bearer ${humanKey}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify(verifyOrder()),
  });
  assert.equal(order.status, 201, order.text);
  taskRef = order.json.data.ref;
});
after(async () => {
  recordFigures('http-abuse', {
    ...figures,
    slowestNormalRequestMs: Math.round(slowestNormal),
    limits: LIMITS,
    bodyLimitBytes: bodyLimit,
  });
  await server?.cleanup();
});
// The human key has 120 requests a minute and the test clock stands still: each test gets a fresh minute.
beforeEach(() => server.clock.advance(60_000));

const host = () => `Host: 127.0.0.1:${port}\r\n`;
const verifyOrder = () => ({
  capability: 'human.verify',
  spec: { claim: 'The bakery at 12 Rue Oberkampf is open on Sundays', subject: 'Boulangerie Martin, 12 Rue Oberkampf' },
  location: { country_iso: 'FR', city_slug: 'paris' },
  max_price_cents: 2000,
});
const tasksStored = () => server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get() as number;

/** A normal client is served now: /healthz and a keyed API read, in parallel, on their own connections. */
async function othersServed(): Promise<void> {
  const started = performance.now();
  const [health, read] = await Promise.all([
    fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(20_000) }),
    fetch(`${server.url}/impact/v1/scenarios`, {
      headers: { authorization: `Bearer ${impactKey}` },
      signal: AbortSignal.timeout(20_000),
    }),
  ]);
  assert.equal(health.status, 200, 'GET /healthz is served meanwhile');
  assert.equal(read.status, 200, 'an API read is served meanwhile');
  assert.equal(((await health.json()) as { status: string }).status, 'ok');
  assert.ok(((await read.json()) as { data: unknown }).data);
  slowestNormal = Math.max(slowestNormal, performance.now() - started);
}

/**
 * Sends `bytes` in two parts with normal requests served in between (the abusive request is then
 * half-received: in progress), and returns the raw answer once `responses` came or the socket closed.
 */
async function abuseWhileServing(
  bytes: string | Buffer,
  options: { splitAt?: number; responses?: number } = {},
): Promise<RawConnection> {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'latin1');
  const split = options.splitAt ?? Math.floor(buf.length / 2);
  const conn = new RawConnection(port);
  await conn.write(buf.subarray(0, split));
  await othersServed();
  await conn.write(buf.subarray(split));
  await conn.waitForResponses(options.responses ?? 1, 10_000);
  if (conn.responses.some((r) => r.headers.connection === 'close')) await conn.waitForClose(3_000);
  return conn;
}

const jsonOf = (r: RawResponse) => JSON.parse(r.body) as { error: { code: string; message: string } };
/** The human document's error body, with the code expected. */
function assertHumanError(r: RawResponse | undefined, status: number, code: string, message?: RegExp): void {
  assert.ok(r, 'an answer came');
  assert.equal(r.status, status, r.body);
  assert.match(r.headers['content-type'] ?? '', /^application\/json/);
  const body = jsonOf(r);
  assert.deepEqual(Object.keys(body.error), ['code', 'message']);
  assert.equal(body.error.code, code);
  if (message) assert.match(body.error.message, message);
}

const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const head =
    `POST ${path} HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Length: ${bytes.length}\r\n` +
    Object.entries({ 'content-type': 'application/json', ...headers })
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
};

describe('bodies over BODY_LIMIT_BYTES', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('declared by Content-Length: 413 in the service shape before the body is read, connection closed, nothing stored', async () => {
    const before = tasksStored();
    const conn = new RawConnection(port);
    await conn.write(
      `POST /human/v1/tasks HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nIdempotency-Key: ${randomUUID()}\r\nContent-Length: ${bodyLimit + 1}\r\n\r\n`,
    );
    await conn.write('{"capability":"human.verify","spec":{"claim":"');
    await othersServed();
    await conn.waitForResponses(1, 10_000);
    assertHumanError(conn.responses[0], 413, 'payload_too_large', new RegExp(`larger than ${bodyLimit} bytes`));
    assert.equal(conn.responses[0]!.headers.connection, 'close', 'the refused body is not read to its end');
    assert.ok(await conn.waitForClose(3_000), 'the connection is closed');
    assert.equal(tasksStored(), before, 'nothing stored');
  });

  test('undeclared (chunked): 413 or a cut connection once the limit is passed, nothing stored', async () => {
    const before = tasksStored();
    const conn = new RawConnection(port);
    await conn.write(
      `POST /human/v1/tasks HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nIdempotency-Key: ${randomUUID()}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = `10000\r\n${' '.repeat(0x10000)}\r\n`; // JSON whitespace: valid until the limit
    let sent = 0;
    while (sent < bodyLimit / 2) {
      await conn.write(chunk);
      sent += 0x10000;
    }
    await othersServed(); // half a limit's worth received, the rest still to come
    while (!conn.isClosed && conn.responses.length === 0 && sent < 8 * bodyLimit) {
      await conn.write(chunk);
      sent += 0x10000;
    }
    assert.ok(conn.isClosed || conn.responses.length > 0, `the server refused the body before ${sent} bytes`);
    assert.ok(await conn.waitForClose(5_000), 'the connection is closed');
    // A server that closes while bytes are still arriving may reset the socket before the 413 is read.
    if (conn.responses.length) assertHumanError(conn.responses[0], 413, 'payload_too_large');
    assert.equal(tasksStored(), before, 'nothing stored');
    figures.chunkedBytesSentBeforeStop = sent;
  });

  test('a huge Content-Length with a tiny body: 413 at once, and bytes after it are never a request', async () => {
    const conn = new RawConnection(port);
    await conn.write(
      `POST /human/v1/quote HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999\r\n\r\n{}`,
    );
    await conn.waitForResponses(1, 10_000);
    assertHumanError(conn.responses[0], 413, 'payload_too_large');
    await conn.write(`GET /impact/v1/smuggled-after-413 HTTP/1.1\r\n${host()}\r\n`);
    await othersServed();
    assert.ok(await conn.waitForClose(3_000), 'closed after the 413');
    assert.equal(conn.responses.length, 1, 'one answer only');
    assert.ok(
      !server.logs.some((l) => l.includes('smuggled-after-413')),
      'the bytes after the refused body were not served',
    );
  });

  test('a declared body that never arrives: closed at the request timeout, others served meanwhile', async () => {
    const conn = new RawConnection(port);
    await conn.write(
      `POST /human/v1/quote HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"capability":`,
    );
    await othersServed();
    assert.ok(await conn.waitForClose(LIMITS.requestTimeoutMs + 10_000), 'the stalled request is timed out');
    assert.ok(
      conn.responses.every((r) => r.status === 408),
      conn.text,
    );
    await sleep(100);
    assert.ok(
      !server.logs.some((l) => l.includes('unhandled fault')),
      "a body cut short is the client's doing, not a fault",
    );
    figures.stalledBodyKeptMs = conn.closedAt! - conn.openedAt;
  });
});

describe('headers', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('a header block over the 16 KiB limit: 431 and closed', async () => {
    const conn = await abuseWhileServing(`GET /healthz HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, {
      splitAt: 8_000,
    });
    assert.equal(conn.responses[0]?.status, 431, conn.text.slice(0, 200));
    assert.ok(await conn.waitForClose(3_000));
  });

  test('very many headers: 431 over the byte limit, served normally under it', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
    const over = await abuseWhileServing(`GET /healthz HTTP/1.1\r\n${host()}${many(3_000)}\r\n`);
    assert.equal(over.responses[0]?.status, 431);
    assert.ok(await over.waitForClose(3_000));
    const under = await abuseWhileServing(`GET /healthz HTTP/1.1\r\n${host()}${many(1_200)}\r\n`);
    assert.equal(under.responses[0]?.status, 200, '1,200 headers within the 16 KiB: served');
    under.destroy();
  });

  test('a long request target counts against the header limit: 431', async () => {
    const conn = await abuseWhileServing(`GET /impact/v1/products?q=${'a'.repeat(20_000)} HTTP/1.1\r\n${host()}\r\n`, {
      splitAt: 6_000,
    });
    assert.equal(conn.responses[0]?.status, 431);
    assert.ok(await conn.waitForClose(3_000));
  });
});

describe('slow clients', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('headers sent a byte at a time are cut at the headers timeout (408), others served throughout', async () => {
    const clients = bySize(10, 50);
    const request = `GET /healthz HTTP/1.1\r\n${host()}User-Agent: slowloris\r\nX-Padding: ${'p'.repeat(40)}\r\n\r\n`;
    const pauseMs = 100; // the whole request would take ~10 s at this pace
    const conns = Array.from({ length: clients }, () => new RawConnection(port));
    const trickles = conns.map((c) => c.trickle(request, pauseMs));
    // Served while every slow client holds a socket half-way through its headers.
    for (let i = 0; i < 5; i++) {
      await othersServed();
      await sleep(200);
    }
    const sent = await Promise.all(trickles);
    for (const [i, conn] of conns.entries()) {
      assert.ok(await conn.waitForClose(LIMITS.headersTimeoutMs + 10_000), `slow client ${i} was closed`);
      assert.ok(
        sent[i]! < request.length,
        `slow client ${i} never finished its headers (${sent[i]} of ${request.length} bytes)`,
      );
      assert.match(conn.text, /^HTTP\/1\.1 408 /, 'answered 408 Request Timeout');
      assert.equal(conn.responses.length, 1);
    }
    const kept = conns.map((c) => c.closedAt! - c.openedAt);
    figures.slowClients = clients;
    figures.slowClientKeptMs = { min: Math.min(...kept), max: Math.max(...kept) };
    assert.ok(Math.min(...kept) >= LIMITS.headersTimeoutMs - 100, 'not cut before the headers timeout');
  });

  test('a client slower than usual but within the headers timeout is served', async () => {
    // The whole request in four pieces over about a third of the timeout.
    const conn = new RawConnection(port);
    const text = `GET /healthz HTTP/1.1\r\n${host()}X-Slow: yes\r\n\r\n`;
    for (let i = 0; i < 4; i++) {
      await conn.write(text.slice((i * text.length) / 4, ((i + 1) * text.length) / 4));
      if (i < 3) await sleep(LIMITS.headersTimeoutMs / 10);
    }
    await conn.waitForResponses(1, 5_000);
    assert.equal(conn.responses[0]?.status, 200);
    conn.destroy();
  });
});

test(
  "with the production limits a slow client is cut soon after the 10 s headers timeout, not node's 30 s check later",
  { skip: !LONG && 'long mode: it waits the real timeout' },
  async () => {
    const production = await startTestServer({ demo: false });
    try {
      const conn = new RawConnection(production.app.port);
      const trickle = conn.trickle(
        `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'p'.repeat(400)}\r\n\r\n`,
        50,
      );
      assert.ok(await conn.waitForClose(DEFAULT_LIMITS.headersTimeoutMs + 20_000), 'closed');
      await trickle;
      const kept = conn.closedAt! - conn.openedAt;
      figures.productionSlowClientKeptMs = kept;
      assert.match(conn.text, /^HTTP\/1\.1 408 /);
      assert.ok(kept >= DEFAULT_LIMITS.headersTimeoutMs, `kept ${kept} ms`);
      assert.ok(
        kept < DEFAULT_LIMITS.headersTimeoutMs + DEFAULT_LIMITS.checkIntervalMs + 5_000,
        `kept ${kept} ms: cut by the next check, not half a minute later`,
      );
    } finally {
      await production.cleanup();
    }
  },
);

describe('idle connections', { timeout: SUITE_TIMEOUT_MS }, () => {
  test('hundreds of idle sockets do not stop others being served, and all are closed after the timeouts', async () => {
    const silent = bySize(300, 1_500);
    const kept = bySize(100, 500);
    const started = Date.now();
    const idle = await openIdle(port, silent);
    // Keep-alive sockets that sent one request and then went quiet.
    const alive = await openIdle(port, kept);
    await Promise.all(alive.map((c) => c.write(`GET /healthz HTTP/1.1\r\n${host()}\r\n`)));
    await Promise.all(alive.map((c) => c.waitForResponses(1, 15_000)));
    assert.ok(
      alive.every((c) => c.responses[0]?.status === 200),
      'each keep-alive socket got its answer',
    );
    for (let i = 0; i < 3; i++) await othersServed();
    const all = [...idle, ...alive];
    const deadline = LIMITS.headersTimeoutMs + LIMITS.keepAliveTimeoutMs + 15_000;
    const closed = await Promise.all(all.map((c) => c.waitForClose(deadline)));
    assert.equal(closed.filter(Boolean).length, all.length, 'every idle socket was closed by the server');
    for (const c of idle)
      assert.ok(
        c.text === '' || /^HTTP\/1\.1 408 /.test(c.text),
        `a silent socket gets at most a 408: ${c.text.slice(0, 40)}`,
      );
    await othersServed();
    const closedAfter = (cs: RawConnection[]) => Math.max(...cs.map((c) => c.closedAt! - started));
    figures.idleSockets = {
      silent,
      keepAlive: kept,
      silentAllClosedMs: closedAfter(idle),
      keepAliveAllClosedMs: closedAfter(alive),
    };
  });
});

describe(
  'malformed JSON: 400 invalid_request naming the problem, the process unharmed',
  { timeout: SUITE_TIMEOUT_MS },
  () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const endpoints: Array<{ path: () => string; headers: Record<string, string> }> = [
      { path: () => '/human/v1/quote', headers: {} },
      { path: () => '/human/v1/tasks', headers: { 'idempotency-key': randomUUID() } },
      { path: () => `/human/v1/tasks/${taskRef}/cancel`, headers: {} },
      { path: () => `/human/v1/tasks/${taskRef}/dispute`, headers: {} },
    ];
    const bodies: Array<{ name: string; body: string | Buffer; message: RegExp }> = [
      { name: 'truncated', body: '{"capability":"human.ver', message: /not valid JSON/ },
      { name: 'NaN', body: '{"max_price_cents":NaN}', message: /not valid JSON/ },
      { name: 'a trailing comma', body: '{"reason":"other",}', message: /not valid JSON/ },
      { name: 'single quotes', body: "{'reason':'other'}", message: /not valid JSON/ },
      { name: 'a BOM before nothing', body: '\uFEFF', message: /not valid JSON/ },
      // Bytes that are not UTF-8 are decoded with replacement characters; the field then fails its schema.
      {
        name: 'invalid UTF-8 in a value',
        body: Buffer.concat([Buffer.from('{"reason":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
        message: /reason|capability|statement/,
      },
      { name: 'a top-level null', body: 'null', message: /object/i },
      { name: '100,000 nested arrays', body: nested(100_000), message: /object/i },
      {
        name: '100,000 nested arrays in a field',
        body: `{"reason":${nested(100_000)}}`,
        message: /reason|capability|Unknown field/,
      },
      {
        name: '50,000 nested objects in a field',
        body: `{"reason":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`,
        message: /reason|capability|Unknown field/,
      },
    ];
    for (const b of bodies) {
      test(b.name, async () => {
        for (const e of endpoints) {
          const conn = await abuseWhileServing(post(e.path(), b.body, e.headers));
          assertHumanError(conn.responses[0], 400, 'invalid_request', b.message);
          conn.destroy();
        }
        await othersServed();
      });
    }

    test('huge numbers are refused by the field they are in', async () => {
      for (const huge of ['1e400', '123456789012345678901234567890', '-1e400']) {
        const body = JSON.stringify(verifyOrder()).replace('"max_price_cents":2000', `"max_price_cents":${huge}`);
        const conn = await abuseWhileServing(post('/human/v1/tasks', body, { 'idempotency-key': randomUUID() }));
        assertHumanError(conn.responses[0], 400, 'invalid_request', /max_price_cents/);
        conn.destroy();
      }
    });

    test('a BOM before valid JSON is tolerated (routes/human/body.ts strips it)', async () => {
      const quote = {
        capability: 'human.verify',
        location: { country_iso: 'FR', city_slug: 'paris' },
        sla: 'standard',
      };
      const conn = await abuseWhileServing(post('/human/v1/quote', '\uFEFF' + JSON.stringify(quote)));
      assert.equal(conn.responses[0]?.status, 200, conn.responses[0]?.body);
      conn.destroy();
    });

    test('MCP: malformed JSON is a JSON-RPC parse error (400), deep nesting is refused without harm', async () => {
      const mcp = (body: string) => post('/human/v1/mcp', body, { accept: 'application/json, text/event-stream' });
      for (const body of [
        '{"jsonrpc":"2.0","id":1,"meth',
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":NaN}',
      ]) {
        const conn = await abuseWhileServing(mcp(body));
        assert.equal(conn.responses[0]?.status, 400);
        assert.equal(JSON.parse(conn.responses[0]!.body).error.code, -32700);
        conn.destroy();
      }
      const deepTop = await abuseWhileServing(mcp(nested(100_000)));
      assert.equal(deepTop.responses[0]?.status, 400, deepTop.responses[0]?.body);
      deepTop.destroy();
      const deepArgs = await abuseWhileServing(
        mcp(
          `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"quote_task","arguments":{"capability":${nested(100_000)}}}}`,
        ),
      );
      const answer = deepArgs.responses[0];
      assert.equal(answer?.status, 200, 'a tool error, not a fault');
      assert.match(answer!.body, /"isError":true/);
      assert.match(answer!.body, /capability/);
      deepArgs.destroy();
    });
  },
);

describe(
  'wrong content types on JSON endpoints: 415 unsupported_media_type (docs/decisions.md "Bodies")',
  { timeout: SUITE_TIMEOUT_MS },
  () => {
    const types = [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
      'application/json; charset=iso-8859-1',
      'application/jsonx',
      'text/json',
    ];
    for (const type of types) {
      test(type || 'no Content-Type', async () => {
        for (const path of ['/human/v1/quote', '/human/v1/tasks', `/human/v1/tasks/${taskRef}/dispute`]) {
          const conn = await abuseWhileServing(
            post(path, '{"reason":"other"}', { 'content-type': type, 'idempotency-key': randomUUID() }),
          );
          assertHumanError(
            conn.responses[0],
            415,
            'unsupported_media_type',
            type ? /Content-Type: application\/json \(got/ : /no Content-Type was sent/,
          );
          conn.destroy();
        }
        if (!type.startsWith('application/json')) {
          // MCP refuses in JSON-RPC's shape (the SDK's transport).
          const mcp = await abuseWhileServing(
            post('/human/v1/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
              'content-type': type,
              accept: 'application/json, text/event-stream',
            }),
          );
          assert.ok([400, 415].includes(mcp.responses[0]?.status ?? 0), mcp.responses[0]?.body);
          mcp.destroy();
        }
      });
    }
  },
);

describe('a Host header that is not ours', { timeout: SUITE_TIMEOUT_MS }, () => {
  const foreign = 'evil.example';
  const mcpCall = (extra: string, hostLine = `Host: ${foreign}\r\n`) => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    return `POST /human/v1/mcp HTTP/1.1\r\n${hostLine}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;
  };

  test('MCP refuses a foreign Host and a foreign Origin (403 forbidden_origin), and answers its own', async () => {
    const badHost = await abuseWhileServing(mcpCall(''));
    assertHumanError(badHost.responses[0], 403, 'forbidden_origin', /Host 'evil\.example'/);
    const badOrigin = await abuseWhileServing(mcpCall(`Origin: http://${foreign}\r\n`, host()));
    assertHumanError(badOrigin.responses[0], 403, 'forbidden_origin', /Origin/);
    const nullOrigin = await abuseWhileServing(mcpCall('Origin: null\r\n', host()));
    assertHumanError(nullOrigin.responses[0], 403, 'forbidden_origin');
    const ours = await abuseWhileServing(mcpCall('', host()));
    assert.equal(ours.responses[0]?.status, 200, ours.responses[0]?.body);
    for (const c of [badHost, badOrigin, nullOrigin, ours]) c.destroy();
  });

  test('REST answers any Host by design, and never reflects it in headers, bodies or links', async () => {
    const paths = [
      '/impact/v1/',
      '/impact/v1/scenarios',
      '/impact/v1/openapi.json',
      '/funding/v1/sources',
      '/human/v1/capabilities',
      '/healthz',
      '/',
      '/console',
      '/console/keys',
      '/impact/v1/nope',
    ];
    for (const path of paths) {
      // A key for impact (its anonymous allowance is 100 a day); the others are served anonymously.
      const auth = path.startsWith('/impact') ? `Authorization: Bearer ${impactKey}\r\n` : '';
      const conn = await abuseWhileServing(
        `GET ${path} HTTP/1.1\r\nHost: ${foreign}\r\nX-Forwarded-Host: ${foreign}\r\nX-Forwarded-Proto: https\r\n${auth}\r\n`,
      );
      const r = conn.responses[0];
      assert.ok(r && r.status < 500, `${path}: ${r?.status}`);
      assert.ok(!conn.text.includes(foreign), `${path}: the foreign host is not echoed (${r?.headers.location ?? ''})`);
      if (r.headers.location)
        assert.match(r.headers.location, /^\/[^/]/, `${path}: a redirect stays on the server it came to`);
      conn.destroy();
    }
  });
});

describe(
  'request smuggling shapes: 400 and closed, the smuggled request never seen',
  { timeout: SUITE_TIMEOUT_MS },
  () => {
    const smuggled = (id: string) => `GET /impact/v1/smuggled-${id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const shapes: Array<{ name: string; head: string; body: string }> = [
      {
        name: 'Transfer-Encoding chunked with Content-Length',
        head: 'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n',
        body: '0\r\n\r\n',
      },
      {
        name: 'Content-Length after Transfer-Encoding',
        head: 'Transfer-Encoding: chunked\r\nContent-Length: 40\r\n',
        body: '0\r\n\r\n',
      },
      { name: 'two Content-Lengths that differ', head: 'Content-Length: 0\r\nContent-Length: 52\r\n', body: '' },
      { name: 'two Content-Lengths that agree', head: 'Content-Length: 0\r\nContent-Length: 0\r\n', body: '' },
      { name: 'a Content-Length list', head: 'Content-Length: 0, 0\r\n', body: '' },
      { name: 'a signed Content-Length', head: 'Content-Length: +0\r\n', body: '' },
      { name: 'a negative Content-Length', head: 'Content-Length: -1\r\n', body: '' },
      { name: 'Transfer-Encoding xchunked', head: 'Transfer-Encoding: xchunked\r\n', body: '0\r\n\r\n' },
      {
        name: 'Transfer-Encoding chunked, xchunked',
        head: 'Transfer-Encoding: chunked, xchunked\r\n',
        body: '0\r\n\r\n',
      },
      {
        name: 'Transfer-Encoding identity',
        head: 'Transfer-Encoding: identity\r\nContent-Length: 5\r\n',
        body: '0\r\n\r\n',
      },
      {
        name: 'Transfer-Encoding twice',
        head: 'Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n',
        body: '0\r\n\r\n',
      },
      {
        name: 'Transfer-Encoding by obs-fold',
        head: 'Transfer-Encoding:\r\n chunked\r\nContent-Length: 5\r\n',
        body: '0\r\n\r\n',
      },
      {
        name: 'a space before the colon',
        head: 'Transfer-Encoding : chunked\r\nContent-Length: 5\r\n',
        body: '0\r\n\r\n',
      },
      { name: 'a bad chunk size', head: 'Transfer-Encoding: chunked\r\n', body: 'zz\r\nabcde\r\n0\r\n\r\n' },
      { name: 'an empty chunk extension', head: 'Transfer-Encoding: chunked\r\n', body: '5;\r\nabcde\r\n0\r\n\r\n' },
      { name: 'a bare CR in a header', head: 'X-A: a\rGET /x HTTP/1.1\r\n', body: '' },
      { name: 'a NUL in a header', head: 'X-A: a\u0000b\r\n', body: '' },
    ];
    for (const [i, s] of shapes.entries()) {
      test(s.name, async () => {
        const id = `${i}-${randomUUID().slice(0, 8)}`;
        const bytes = `POST /human/v1/quote HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\n${s.head}\r\n${s.body}${smuggled(id)}`;
        const conn = await abuseWhileServing(bytes, { responses: 2 });
        assert.ok(await conn.waitForClose(3_000), 'the connection is closed');
        assert.equal(conn.responses.length, 1, `one answer: ${conn.text.slice(0, 200)}`);
        assert.equal(conn.responses[0]!.status, 400);
        assert.ok(!server.logs.some((l) => l.includes(`smuggled-${id}`)), 'the smuggled request was never served');
      });
    }

    test('a request hidden in a body is read as body; the next real request on the connection is served', async () => {
      const hidden = `GET /impact/v1/smuggled-in-body HTTP/1.1\r\nX: 1\r\n\r\n`;
      const bytes = `GET /healthz HTTP/1.1\r\n${host()}Content-Length: ${hidden.length}\r\n\r\n${hidden}GET /healthz HTTP/1.1\r\n${host()}\r\n`;
      const conn = await abuseWhileServing(bytes, { responses: 2 });
      assert.deepEqual(
        conn.responses.map((r) => r.status),
        [200, 200],
      );
      assert.ok(!server.logs.some((l) => l.includes('smuggled-in-body')));
      conn.destroy();
    });

    test('a well-framed chunked request followed by a pipelined one: both served, in order', async () => {
      const quote = JSON.stringify({
        capability: 'human.verify',
        location: { country_iso: 'FR', city_slug: 'paris' },
        sla: 'standard',
      });
      const bytes =
        `POST /human/v1/quote HTTP/1.1\r\n${host()}Authorization: Bearer ${humanKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${Buffer.byteLength(quote).toString(16)}\r\n${quote}\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\n${host()}\r\n`;
      const conn = await abuseWhileServing(bytes, { responses: 2 });
      assert.deepEqual(
        conn.responses.map((r) => r.status),
        [200, 200],
      );
      assert.equal(JSON.parse(conn.responses[0]!.body).data.status, 'quoted');
      assert.deepEqual(JSON.parse(conn.responses[1]!.body), { status: 'ok' });
      conn.destroy();
    });
  },
);

describe('request lines', { timeout: SUITE_TIMEOUT_MS }, () => {
  const cases: Array<{ name: string; bytes: () => string; expect: (c: RawConnection) => void | Promise<void> }> = [
    {
      name: 'an absolute-form target: 400, we are not a proxy',
      bytes: () => `GET http://evil.example/impact/v1/scenarios HTTP/1.1\r\n${host()}\r\n`,
      expect: (c) => {
        assert.equal(c.responses[0]?.status, 400);
        assert.deepEqual(JSON.parse(c.responses[0]!.body), {
          error: 'bad_request',
          message: 'The request target must be a path starting with /.',
        });
      },
    },
    {
      name: 'an asterisk-form target: 400',
      bytes: () => `OPTIONS * HTTP/1.1\r\n${host()}\r\n`,
      expect: (c) => assert.equal(c.responses[0]?.status, 400),
    },
    {
      name: 'an unknown method: 400 and closed',
      bytes: () => `FOO /healthz HTTP/1.1\r\n${host()}\r\n`,
      expect: bare400,
    },
    {
      name: 'a lower-case method: 400 and closed',
      bytes: () => `get /healthz HTTP/1.1\r\n${host()}\r\n`,
      expect: bare400,
    },
    {
      name: 'a method with a bad character: 400 and closed',
      bytes: () => `G@T /healthz HTTP/1.1\r\n${host()}\r\n`,
      expect: bare400,
    },
    { name: 'the HTTP/2 preface: 400 and closed', bytes: () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', expect: bare400 },
    { name: 'HTTP/1.2: 400 and closed', bytes: () => `GET /healthz HTTP/1.2\r\n${host()}\r\n`, expect: bare400 },
    { name: 'HTTP/1.1 without Host: 400 and closed', bytes: () => 'GET /healthz HTTP/1.1\r\n\r\n', expect: bare400 },
    {
      name: 'bare LF line ends: 400 and closed',
      bytes: () => `GET /healthz HTTP/1.1\n${host().trim()}\n\n`,
      expect: bare400,
    },
    {
      name: 'binary garbage: 400 and closed',
      bytes: () => '\u0000\u0001\u0002\u00ff garbage\r\n\r\n',
      expect: bare400,
    },
    {
      name: 'a TLS ClientHello on the plain port: 400 and closed',
      bytes: () => '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u01fc\u0003\u0003',
      expect: bare400,
    },
    {
      name: 'HTTP/1.0 without Host: served (Host is optional in 1.0) and closed',
      bytes: () => 'GET /healthz HTTP/1.0\r\n\r\n',
      expect: async (c) => {
        assert.equal(c.responses[0]?.status, 200);
        assert.ok(await c.waitForClose(3_000));
      },
    },
    {
      name: 'a method the path does not take: 405 with Allow in the service shape',
      bytes: () => `TRACE /impact/v1/scenarios HTTP/1.1\r\n${host()}Authorization: Bearer ${impactKey}\r\n\r\n`,
      expect: (c) => {
        assert.equal(c.responses[0]?.status, 405);
        assert.equal(c.responses[0]!.headers.allow, 'GET, HEAD, OPTIONS');
        assert.equal(JSON.parse(c.responses[0]!.body).error.code, 'method_not_allowed');
      },
    },
    {
      name: 'CONNECT: closed without being served',
      bytes: () => `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`,
      expect: async (c) => {
        assert.ok(await c.waitForClose(3_000));
        assert.ok(
          c.responses.every((r) => r.status >= 400 && r.status < 500),
          c.text,
        );
      },
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const conn = await abuseWhileServing(c.bytes());
      await c.expect(conn);
      for (const r of conn.responses) assert.ok(r.status < 500, `no 5xx: ${r.status}`);
      conn.destroy();
    });
  }

  async function bare400(c: RawConnection): Promise<void> {
    assert.equal(c.responses[0]?.status, 400, c.text.slice(0, 100));
    assert.ok(await c.waitForClose(3_000), 'closed');
  }
});

test('after all of it: no request faulted, and the server still serves', async () => {
  await othersServed();
  const faults = server.logs.filter((l) => /"status":5\d\d|unhandled fault|stream failed/.test(l));
  assert.deepEqual(faults, []);
  const health = await exchange(port, `GET /healthz HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
  assert.equal(health.responses[0]?.status, 200);
});
