/**
 * Secrets (issue 8): no key, password, session cookie or CSRF token in any log line, error body or
 * page after its creation, and keys kept and compared as SHA-256 hashes only.
 *
 * One broad journey on the real server, every exchange captured (tests/reliability/secrets/capture.ts):
 * sign-up and sign-in, keys created in the console for the three services, every key used correctly
 * and wrongly (in the query string, in the wrong header, in a path or a parameter value, truncated,
 * mistyped, on the wrong service, revoked, rotated), human MCP calls with the official client, error pages, CSRF failures, sign-out.
 * Then everything captured is scanned for every secret collected (tests/reliability/secrets/scan.ts:
 * for keys, any 16 characters of the secret part). Where each secret may appear, precisely:
 *  - a key: only in the body of the one page that shows it (the answer to its create or rotate form),
 *    and there only in its read-only input; nowhere else, no log line, no header, no later page;
 *  - a password: nowhere, ever (a refused form is re-rendered without it);
 *  - a session cookie value: only in the Set-Cookie of the response that started the session; never
 *    in a body, another header, another Set-Cookie or a log line;
 *  - the visitor (CSRF) cookie: likewise, only in the Set-Cookie that first gave it;
 *  - a CSRF token: only as the value of a hidden `csrf` field in an HTML page answering the visitor
 *    and session it is bound to (HMAC(secret, visitor + session), lib/csrf.ts); every such field on a
 *    page must carry exactly that token. So a token presented by someone else, or a stale one, is
 *    never echoed (not in the 403 page, not in a log line), and no token is ever in a header or JSON.
 * Finally the SQLite file and its WAL are scanned for every key, secret part, password and session
 * token, and the keys table is checked to hold sha256(key) and nothing that contains a key.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { serverSecret } from '../../db/sessions.ts';
import { csrfToken } from '../../lib/csrf.ts';
import { checkKey } from '../../lib/key-check.ts';
import { formatKey, hashKey, KEY_PREFIXES } from '../../lib/keys.ts';
import { ConsoleClient } from '../helpers/console.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { Capture, type Exchange } from './secrets/capture.ts';
import { keyWindows, secretPart, SecretScanner, type Finding, type Secret } from './secrets/scan.ts';

let server: TestServer;
const capture = new Capture();
const mcpClients: Client[] = [];

before(async () => {
  // debug: the more the server says, the more the scan covers.
  server = await startTestServer({
    env: { LOG_LEVEL: 'debug', SANDBOX_DELAY_MS: '1000', HUMAN_SCHEDULER_TICK_MS: '60000' },
  });
  capture.install();
});
after(async () => {
  for (const c of mcpClients) await c.close().catch(() => {});
  capture.uninstall();
  await server?.cleanup();
});

const password = (label: string) => `${label}-${randomBytes(15).toString('base64url')}`;
const passwords = { a: password('pwa'), b: password('pwb'), wrong: password('pwwrong'), duplicate: password('pwdup') };
const keys = new Map<string, string>(); // label → key

/** A request through the capturing fetch. */
async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await capture.fetch(server.url + path, {
    method,
    headers,
    redirect: 'manual',
    ...(body !== undefined ? { body } : {}),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function mcp(key: string): Promise<Client> {
  const client = new Client({ name: 'trio-secrets-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/human/v1/mcp`), {
      fetch: capture.fetch,
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  mcpClients.push(client);
  return client;
}

const keyId = (name: string) =>
  server.app.db.prepare('SELECT id FROM api_keys WHERE name = ? ORDER BY id DESC LIMIT 1').pluck().get(name) as number;

/** Variants of a key a careless client might send: each must be refused without being echoed. */
const mangled = (key: string) => ({
  truncated: key.slice(0, -1),
  mistyped: key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'),
  doubled: `${key},${key}`,
});

test('the journey: console, keys for every service used right and wrong, MCP, errors, CSRF, sign-out', async () => {
  const a = new ConsoleClient(server);
  const b = new ConsoleClient(server);
  const stranger = new ConsoleClient(server);

  // A's pre-sign-in token, to present again once it is stale.
  const preSignIn = ConsoleClient.csrf((await a.get('/console/sign-up')).text);
  assert.equal((await a.signUp('secrets-a@example.org', passwords.a)).status, 303);
  assert.equal((await b.signUp('secrets-b@example.org', passwords.b)).status, 303);
  assert.equal((await stranger.signIn('secrets-a@example.org', passwords.wrong)).status, 401);
  assert.equal((await stranger.signUp('secrets-a@example.org', passwords.duplicate)).status, 409);
  assert.equal((await a.signIn('secrets-a@example.org', passwords.a)).status, 303, 'a second sign-in: a new session');

  const created = async (label: string, service: string, extra: Record<string, string | string[]> = {}) => {
    const res = await a.createKey(service, `secrets ${label}`, extra);
    assert.equal(res.status, 201, res.text);
    keys.set(label, res.key!);
    return res.key!;
  };
  const scopes = ['tasks:read', 'tasks:write'];
  const funding = await created('funding', 'funding');
  const impact = await created('impact', 'impact');
  const humanTest = await created('human test', 'human', { environment: 'test', scopes });
  const humanLive = await created('human live', 'human', { environment: 'live', scopes });
  const bKey = await b.createKey('human', 'secrets b human', { environment: 'test', scopes });
  assert.equal(bKey.status, 201);
  keys.set('b human', bKey.key!);

  // Used as documented.
  assert.equal((await call('GET', '/impact/v1/', { authorization: `Bearer ${impact}` })).status, 200);
  assert.equal((await call('GET', '/impact/v1/', { 'x-api-key': impact })).status, 200);
  assert.equal((await call('GET', '/funding/v1/sources', { 'x-api-key': funding })).status, 200);
  assert.equal((await call('GET', '/human/v1/tasks', { authorization: `Bearer ${humanTest}` })).status, 200);
  assert.equal((await call('GET', '/human/v1/balance', { 'x-api-key': humanLive })).status, 200);
  const order = {
    capability: 'human.verify',
    spec: { claim: 'The bakery is open on Sundays', subject: 'Boulangerie Martin' },
    location: { country_iso: 'FR', city_slug: 'paris' },
    max_price_cents: 2000,
  };
  const ordered = await call(
    'POST',
    '/human/v1/tasks',
    {
      authorization: `Bearer ${humanTest}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    JSON.stringify(order),
  );
  assert.equal(ordered.status, 201, ordered.text);
  const ref = JSON.parse(ordered.text).data.ref as string;
  const broke = await call(
    'POST',
    '/human/v1/tasks',
    {
      authorization: `Bearer ${humanLive}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    JSON.stringify(order),
  );
  assert.equal(broke.status, 402, 'a live order without balance: an error body to scan');

  // The MCP server with the official client.
  const agent = await mcp(humanTest);
  assert.ok((await agent.listTools()).tools.length > 5);
  const mcpOrder = await agent.callTool({
    name: 'create_task',
    arguments: { idempotency_key: crypto.randomUUID(), ...order },
  });
  assert.notEqual(mcpOrder.isError, true, JSON.stringify(mcpOrder));
  assert.notEqual((await agent.callTool({ name: 'get_task', arguments: { ref } })).isError, true);
  assert.equal(
    (await agent.callTool({ name: 'get_task', arguments: { ref: 'tsk_00000000000000000000' } })).isError,
    true,
  );
  const liveAgent = await mcp(humanLive);
  assert.equal(
    (await liveAgent.callTool({ name: 'get_task', arguments: { ref } })).isError,
    true,
    "a sandbox ref is not the live key's",
  );
  await assert.rejects(mcp(funding), 'a funding key is not a human key');
  await assert.rejects(mcp(mangled(humanTest).mistyped));

  // Used wrongly: each refused, none echoed (the scan below checks the echo).
  for (const name of ['api_key', 'apikey', 'key']) {
    assert.equal((await call('GET', `/funding/v1/sources?${name}=${funding}`)).status, 400, `funding ?${name}=`);
  }
  assert.equal((await call('GET', '/funding/v1/sources', { authorization: `Bearer ${funding}` })).status, 400);
  assert.equal((await call('GET', '/funding/v1/sources', { 'x-api-key': impact })).status, 401);
  for (const variant of Object.values(mangled(funding)))
    assert.equal((await call('GET', '/funding/v1/sources', { 'x-api-key': variant })).status, 401);
  assert.equal(
    (await call('GET', '/funding/v1/sources', { 'x-key': funding })).status,
    200,
    'an unknown header is no credential: served anonymously',
  );

  for (const name of ['api_key', 'access_token'])
    assert.equal((await call('GET', `/impact/v1/?${name}=${impact}`)).status, 400, `impact ?${name}=`);
  assert.equal((await call('GET', '/impact/v1/', { authorization: `Token ${impact}` })).status, 401);
  assert.equal(
    (await call('GET', '/impact/v1/', { authorization: `Bearer ${impact}`, 'x-api-key': funding })).status,
    400,
  );
  assert.equal((await call('GET', '/impact/v1/', { authorization: `Bearer ${humanTest}` })).status, 401);
  for (const variant of Object.values(mangled(impact)))
    assert.equal((await call('GET', '/impact/v1/', { authorization: `Bearer ${variant}` })).status, 401);

  assert.equal((await call('GET', `/human/v1/tasks?api_key=${humanTest}`)).status, 400);
  assert.equal((await call('GET', '/human/v1/tasks', { authorization: humanTest })).status, 401);
  assert.equal((await call('GET', '/human/v1/tasks', { authorization: `Basic ${humanTest}` })).status, 401);
  assert.equal(
    (await call('GET', '/human/v1/tasks', { authorization: `Bearer ${humanTest}`, 'x-api-key': humanLive })).status,
    400,
  );
  assert.equal((await call('GET', '/human/v1/tasks', { 'x-api-key': funding })).status, 401);
  for (const variant of Object.values(mangled(humanLive)))
    assert.equal((await call('GET', '/human/v1/balance', { 'x-api-key': variant })).status, 401);
  assert.equal(
    (await call('GET', `/human/v1/tasks/${ref}`, { authorization: `Bearer ${keys.get('b human')}` })).status,
    404,
  );
  // Pasted where an id or a parameter value goes: refused, the path logged and the value echoed
  // only cut to the key's prefix (lib/keys.ts redactKeys).
  assert.equal((await call('GET', `/funding/v1/calls/${funding}`)).status, 400);
  assert.equal((await call('GET', `/impact/v1/product/${impact}`)).status, 400);
  assert.equal(
    (await call('GET', `/human/v1/tasks/${humanLive}`, { authorization: `Bearer ${humanTest}` })).status,
    400,
  );
  assert.equal(
    (await call('GET', `/human/v1/tasks?status=${humanLive}`, { authorization: `Bearer ${humanTest}` })).status,
    400,
  );
  assert.equal((await agent.callTool({ name: 'get_task', arguments: { ref: humanLive } })).isError, true);

  // Rotated and revoked in the console.
  const rotated = await a.post(
    `/console/keys/${keyId('secrets impact')}/rotate`,
    { grace: 'now' },
    { csrfFrom: '/console/keys' },
  );
  assert.equal(rotated.status, 201);
  const impactNew = /id="new-key" readonly value="([^"]+)"/.exec(rotated.text)![1]!;
  keys.set('impact rotated', impactNew);
  assert.equal(
    (await call('GET', '/impact/v1/', { authorization: `Bearer ${impact}` })).status,
    401,
    'rotated with no grace',
  );
  assert.equal((await call('GET', '/impact/v1/', { authorization: `Bearer ${impactNew}` })).status, 200);
  const rotatedFunding = await a.post(
    `/console/keys/${keyId('secrets funding')}/rotate`,
    { grace: 'keep' },
    { csrfFrom: '/console/keys' },
  );
  assert.equal(rotatedFunding.status, 201);
  keys.set('funding rotated', /id="new-key" readonly value="([^"]+)"/.exec(rotatedFunding.text)![1]!);
  for (const name of ['secrets human test', 'secrets funding']) {
    const revoked = await a.post(
      `/console/keys/${server.app.db.prepare('SELECT id FROM api_keys WHERE name = ? ORDER BY id LIMIT 1').pluck().get(name)}/revoke`,
      {},
      { csrfFrom: '/console/keys' },
    );
    assert.equal(revoked.status, 303, name);
  }
  assert.equal((await call('GET', '/human/v1/tasks', { authorization: `Bearer ${humanTest}` })).status, 401);
  assert.equal((await call('GET', '/funding/v1/sources', { 'x-api-key': funding })).status, 401);
  assert.equal((await call('GET', '/funding/v1/sources', { 'x-api-key': keys.get('funding rotated')! })).status, 200);
  await assert.rejects(mcp(humanTest), 'a revoked key cannot open the MCP server');
  const keysPage = await a.get('/console/keys');
  assert.equal(keysPage.status, 200);

  // Error pages.
  assert.equal((await a.get('/console/nope')).status, 404);
  assert.equal((await a.post('/console/keys/999999/revoke', {}, { csrfFrom: '/console/keys' })).status, 404);
  assert.equal(
    (await b.post(`/console/keys/${keyId('secrets human live')}/revoke`, {}, { csrfFrom: '/console/keys' })).status,
    404,
    "another account's key",
  );
  assert.equal(
    (await call('GET', '/human/v1/tasks/tsk_00000000000000000000', { authorization: `Bearer ${humanLive}` })).status,
    404,
  );
  assert.equal(
    (await call('GET', '/funding/v1/calls/eu:NOPE', { 'x-api-key': keys.get('funding rotated')! })).status,
    404,
  );
  assert.equal((await call('GET', '/impact/v1/product/nope', { authorization: `Bearer ${impactNew}` })).status, 404);
  assert.equal((await call('GET', '/nope')).status, 404);

  // CSRF failures: missing, forged, another visitor's token, a stale one; and a wrong form type.
  const bToken = ConsoleClient.csrf((await b.get('/console/keys')).text);
  for (const csrf of [undefined, 'forged', bToken, preSignIn]) {
    const res = await a.post('/console/keys', {
      service: 'impact',
      name: 'never made',
      ...(csrf !== undefined ? { csrf } : {}),
    });
    assert.equal(
      res.status,
      403,
      `csrf ${csrf === bToken ? 'of B' : csrf === preSignIn ? 'from before sign-in' : csrf}`,
    );
  }
  assert.equal(
    (
      await a.post(
        '/console/keys',
        { service: 'impact', name: 'never made' },
        { csrfFrom: '/console/keys', contentType: 'text/plain' },
      )
    ).status,
    415,
  );
  assert.equal(server.app.db.prepare("SELECT count(*) FROM api_keys WHERE name = 'never made'").pluck().get(), 0);

  // Sign-out; the ended session and its token after it.
  const before = new Map(a.cookies);
  const staleToken = ConsoleClient.csrf((await a.get('/console/keys')).text);
  assert.equal((await a.post('/console/sign-out', {}, { csrfFrom: '/console/keys' })).status, 303);
  const replay = new ConsoleClient(server);
  replay.cookies = before;
  const afterSignOut = await replay.get('/console/keys');
  assert.equal(afterSignOut.status, 303, 'an ended session signs nobody in');
  // The old session's token no longer passes, even on the sign-in form (with the right password).
  assert.equal(
    (await a.post('/console/sign-in', { email: 'secrets-a@example.org', password: passwords.a, csrf: staleToken }))
      .status,
    403,
  );

  assert.equal((await call('GET', '/metrics')).status, 200);
  assert.equal((await call('GET', '/healthz')).status, 200);
});

// ---- the scan --------------------------------------------------------------------------------------

const setCookies = (ex: Exchange) =>
  ex.headers.getSetCookie().map((line) => {
    const pair = line.split(';')[0]!;
    const at = pair.indexOf('=');
    return { line, name: pair.slice(0, at), value: pair.slice(at + 1) };
  });

interface Collected {
  exchanges: Exchange[];
  secrets: Secret[];
  /** Per secret value, the exchange whose Set-Cookie created it. */
  cookieBirth: Map<string, number>;
  /** Per exchange, the CSRF token its forms may carry (HTML pages only). */
  expectedCsrf: Map<number, string>;
}

let collected: Collected | undefined;

async function collect(): Promise<Collected> {
  if (collected) return collected;
  const exchanges = await capture.settle();
  const secrets: Secret[] = [];
  for (const [label, value] of keys) secrets.push({ kind: 'key', label, value });
  for (const [label, value] of Object.entries(passwords)) secrets.push({ kind: 'password', label, value });

  const cookieBirth = new Map<string, number>();
  for (const ex of exchanges) {
    for (const c of setCookies(ex)) {
      if (!c.value || cookieBirth.has(c.value)) continue;
      cookieBirth.set(c.value, ex.n);
      secrets.push({
        kind: c.name === 'trio_session' ? 'session cookie' : 'visitor cookie',
        label: `${c.name} set by exchange ${ex.n}`,
        value: c.value,
      });
    }
  }

  const hmacSecret = serverSecret(server.app.db, 'csrf');
  const expectedCsrf = new Map<number, string>();
  const tokens = new Set<string>();
  for (const ex of exchanges) {
    for (const m of ex.body.matchAll(/name="csrf" value="([^"]*)"/g)) tokens.add(m[1]!);
    if (!/^text\/html/.test(ex.headers.get('content-type') ?? '')) continue;
    const sent = new Map(ex.requestCookie.split(';').map((p) => p.trim().split('=') as [string, string]));
    const set = new Map(setCookies(ex).map((c) => [c.name, c.value]));
    const visitor = set.get('trio_csrf') || sent.get('trio_csrf');
    const session = set.has('trio_session') ? set.get('trio_session') || null : (sent.get('trio_session') ?? null);
    if (!visitor) continue;
    const expected = csrfToken(hmacSecret, visitor, session);
    expectedCsrf.set(ex.n, expected);
    tokens.add(expected);
  }
  for (const token of tokens) secrets.push({ kind: 'csrf token', label: `csrf ${token.slice(0, 6)}…`, value: token });
  return (collected = { exchanges, secrets, cookieBirth, expectedCsrf });
}

const report = (findings: Finding[]) =>
  findings.map((f) => `${f.secret.kind} '${f.secret.label}' in ${f.where}: …${f.excerpt}…`).join('\n');

test('the scan sees what it should: secrets collected, pages captured, a planted echo found', async () => {
  const { exchanges, secrets } = await collect();
  const kinds = new Set(secrets.map((s) => s.kind));
  for (const kind of ['key', 'password', 'session cookie', 'visitor cookie', 'csrf token'] as const)
    assert.ok(kinds.has(kind), `collected a ${kind}`);
  assert.equal(secrets.filter((s) => s.kind === 'key').length, 7);
  assert.ok(exchanges.length > 100, `${exchanges.length} exchanges captured`);
  assert.ok(exchanges.every((ex) => ex !== undefined && ex.status > 0));
  assert.ok(server.logs.length > 100, `${server.logs.length} log lines`);
  const scanner = new SecretScanner(secrets);
  const key = keys.get('impact')!;
  assert.equal(
    scanner.scan('planted', `the key was ${secretPart(key).slice(20, 36)}!`).length,
    1,
    '16 characters of a secret part are a finding',
  );
  assert.equal(
    scanner.scan('planted', `the key was ${secretPart(key).slice(20, 35)}!`).length,
    0,
    '15 are not (the display prefix has 4)',
  );
  assert.equal(scanner.scan('planted', `typed ${passwords.wrong}.`).length, 1);
});

test('no secret in any log line', async () => {
  const { secrets } = await collect();
  const scanner = new SecretScanner(secrets);
  const findings = server.logs.flatMap((line, i) => scanner.scan(`log line ${i}`, line));
  assert.equal(findings.length, 0, report(findings));
});

test('no secret in any response beyond its one place: keys in their own page, cookies in their own Set-Cookie, CSRF tokens in their own forms', async () => {
  const { exchanges, secrets, cookieBirth, expectedCsrf } = await collect();
  const scanner = new SecretScanner(secrets);
  const findings: Finding[] = [];
  const misplacedTokens: string[] = [];
  let keyPages = 0;
  for (const ex of exchanges) {
    const where = `${ex.method} ${new URL(ex.url).pathname} (exchange ${ex.n}, ${ex.status})`;
    let body = ex.body;
    // A key's own page: the key once, in its input, nowhere else on the page.
    for (const [label, key] of keys) {
      const field = `id="new-key" readonly value="${key}"`;
      if (body.includes(field)) {
        assert.equal(ex.status, 201, `${label} is shown by a 201 page`);
        assert.match(new URL(ex.url).pathname, /^\/console\/keys(\/\d+\/rotate)?$/);
        body = body.replace(field, 'id="new-key" readonly value="[the new key]"');
        keyPages++;
      }
    }
    // CSRF fields: each must carry exactly the token of this visitor and session.
    const expected = expectedCsrf.get(ex.n);
    body = body.replace(/name="csrf" value="([^"]*)"/g, (all, token: string) => {
      if (token !== expected) {
        misplacedTokens.push(`${where}: a form carries ${token.slice(0, 8)}…, not its visitor's token`);
        return all;
      }
      return 'name="csrf" value="[this visitor\'s token]"';
    });
    findings.push(...scanner.scan(`the body of ${where}`, body));
    const headers = [...ex.headers]
      .filter(([name]) => name !== 'set-cookie')
      .map(([n, v]) => `${n}: ${v}`)
      .join('\n');
    findings.push(...scanner.scan(`the headers of ${where}`, headers));
    const cookies = setCookies(ex)
      .map((c) => (c.value && cookieBirth.get(c.value) === ex.n ? c.line.replace(c.value, '[new value]') : c.line))
      .join('\n');
    findings.push(...scanner.scan(`a Set-Cookie of ${where}`, cookies));
  }
  assert.equal(keyPages, keys.size, 'each key was found on exactly one page, its own');
  assert.deepEqual(misplacedTokens, []);
  assert.equal(findings.length, 0, report(findings));
});

test('the database file and its WAL hold no key, secret part, password or session token', async () => {
  const { secrets } = await collect();
  const files = [server.databasePath, `${server.databasePath}-wal`]
    .filter(existsSync)
    .map((path) => ({ path, bytes: readFileSync(path) }));
  assert.ok(files.length >= 1 && files[0]!.bytes.length > 100_000);
  const needles = secrets.flatMap((s) =>
    s.kind === 'key'
      ? [s.value, secretPart(s.value)]
      : s.kind === 'password' || s.kind === 'session cookie'
        ? [s.value]
        : [],
  );
  const found = files.flatMap(({ path, bytes }) =>
    needles.filter((n) => bytes.includes(n)).map((n) => `${n.slice(0, 12)}… in ${path}`),
  );
  assert.deepEqual(found, []);
  // The hash is there: the scan looked in the right place.
  const anyKey = keys.get('human live')!;
  assert.ok(
    files.some(({ bytes }) => bytes.includes(hashKey(anyKey))),
    'sha256(key) is stored',
  );
});

test('keys are stored as sha256(key), looked up by that hash, and no column holds a key', async () => {
  const db = server.app.db;
  const columns = (db.prepare('PRAGMA table_info(api_keys)').all() as Array<{ name: string }>).map((c) => c.name);
  assert.ok(columns.includes('hash'));
  const rows = db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
  const scanner = new SecretScanner([...keys].map(([label, value]) => ({ kind: 'key' as const, label, value })));
  assert.deepEqual(scanner.scan('api_keys rows', JSON.stringify(rows)), []);
  for (const [label, key] of keys) {
    const sha = createHash('sha256').update(key).digest('hex');
    assert.equal(db.prepare('SELECT count(*) FROM api_keys WHERE hash = ?').pluck().get(sha), 1, label);
    assert.ok(server.app.ctx.lookupKey(sha), `${label}: found by its hash`);
    assert.equal(server.app.ctx.lookupKey(key), undefined, `${label}: not by the key itself`);
  }
  // checkKey: one lookup, by sha256 of the presented key, for a known, a revoked and an unknown key;
  // none at all for a malformed one (lib/key-check.ts).
  const unknown = formatKey('ho_test_', randomBytes(32));
  for (const key of [keys.get('human live')!, keys.get('human test')!, unknown]) {
    const asked: string[] = [];
    checkKey(key, KEY_PREFIXES.slice(), server.clock.ms, (hash) => {
      asked.push(hash);
      return server.app.ctx.lookupKey(hash);
    });
    assert.deepEqual(asked, [createHash('sha256').update(key).digest('hex')]);
  }
  const asked: string[] = [];
  checkKey(mangled(unknown).mistyped, KEY_PREFIXES.slice(), server.clock.ms, (hash) => void asked.push(hash));
  assert.deepEqual(asked, [], 'a key failing its checksum costs no lookup');
  assert.ok(keyWindows(unknown).length > 30);
});
