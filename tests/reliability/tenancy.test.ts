/**
 * Tenancy (issue 8): for every object that belongs to an account, another account's key or session
 * gets 404 (never 403, never the object, and the same answer as for an object that does not exist),
 * and the object is left as it was. Two accounts, A and B, each with a console session and keys for
 * every service (made in the console); a third, W, a verified worker who takes A's live task.
 *
 * The account-owned objects, found by walking the routes:
 *  - routes/human/tasks.ts (REST): a task (GET /tasks/{ref}), its result (/result), its evidence
 *    (/evidence) and each evidence file (/evidence/{evd}), cancel (POST /cancel), dispute (POST
 *    /dispute); the task list (GET /tasks); the balance (GET /balance) and ledger (GET /ledger); the
 *    Idempotency-Key of an order (POST /tasks; kept per account).
 *  - routes/human/mcp-tools.ts (MCP): get_task, get_task_result, get_task_evidence, cancel_task,
 *    dispute_task, list_tasks, create_task's idempotency_key. (list_capabilities, get_capability,
 *    get_coverage and quote_task read the shared catalogue: nobody's.)
 *  - routes/human/catalogue.ts: the catalogue, coverage and quotes: shared, nobody's.
 *  - routes/console/keys.ts: the key list, rotate (POST /keys/{id}/rotate), revoke (POST
 *    /keys/{id}/revoke); create makes B's own.
 *  - routes/console/auth.ts: sessions (sign-out ends the caller's own; a CSRF token is bound to its
 *    visitor and session).
 *  - routes/console/balance.ts: the balance and ledger page.
 *  - routes/console/worker.ts: a worker's task page and its actions (start, deliver, cannot-do) are
 *    the assigned worker's; accept takes an offered task (anyone verified in its area: not owned yet).
 *  - funding (routes/funding/access.ts): the subscription decides the tier of the account's own keys,
 *    and the allowance is counted per account; impact (routes/impact/access.ts) counts per key. No
 *    other funding or impact route reads account data.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { setSubscription } from '../../db/accounts.ts';
import { credit } from '../../db/human/ledger.ts';
import { verifyWorker } from '../../db/human/workers.ts';
import { ConsoleClient } from '../helpers/console.ts';
import { withoutWrittenBehind } from '../helpers/written-behind.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const DELAY_MS = 1000;
const MARK = 'TENANCY-A-ONLY'; // in A's specs: must never reach B
const NO_SUCH_REF = 'tsk_00000000000000000000';

let server: TestServer;
const mcpClients: Client[] = [];

interface Party {
  console: ConsoleClient;
  email: string;
  id: number;
  keys: { funding: string; impact: string; test: string; live: string };
}

let a: Party;
let b: Party;
let w: ConsoleClient;
/** A's objects. */
const refs = { delivered: '', pending: '', live: '' };
let evidenceIds: string[] = [];
const idempotencyKey = randomUUID();

const order = (claim: string) => ({
  capability: 'human.verify',
  spec: { claim, subject: `${MARK} Boulangerie Martin, 12 Rue Oberkampf` },
  location: { country_iso: 'FR', city_slug: 'paris' },
  max_price_cents: 2000,
});

const api = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.request(method, `/human/v1${path}`, {
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

async function tick(ms: number) {
  server.clock.advance(ms);
  const svc = server.app.ctx.human;
  while ((await svc.scheduler.tick()) > 0) {
    /* steps falling due one after another */
  }
}

async function party(name: string): Promise<Party> {
  const client = new ConsoleClient(server);
  const email = `tenancy-${name}@example.org`;
  assert.equal((await client.signUp(email)).status, 303);
  const made = async (service: string, extra: Record<string, string | string[]> = {}) => {
    const res = await client.createKey(service, `${name} ${service} ${extra.environment ?? ''}`.trim(), extra);
    assert.equal(res.status, 201);
    return res.key!;
  };
  const scopes = ['tasks:read', 'tasks:write'];
  const keys = {
    funding: await made('funding'),
    impact: await made('impact'),
    test: await made('human', { environment: 'test', scopes }),
    live: await made('human', { environment: 'live', scopes }),
  };
  const id = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  server.app.db.transaction(() => credit(server.app.db, id, 10_000, 'operator top-up', server.clock.ms)).immediate();
  return { console: client, email, id, keys };
}

async function mcp(key: string): Promise<Client> {
  const client = new Client({ name: 'trio-tenancy-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/human/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  mcpClients.push(client);
  return client;
}

/** Everything stored about A's task: it must not move when B tries something. */
const taskState = (ref: string) => ({
  task: server.app.db.prepare('SELECT * FROM human_tasks WHERE ref = ?').get(ref),
  events: server.app.db
    .prepare('SELECT count(*) FROM human_task_events e JOIN human_tasks t ON t.id = e.task_id WHERE t.ref = ?')
    .pluck()
    .get(ref),
  balances: server.app.db
    .prepare('SELECT kind, balance FROM human_ledger_accounts WHERE account_id = ? ORDER BY kind')
    .all(a.id),
  holds: server.app.db.prepare('SELECT * FROM human_holds WHERE account_id = ? ORDER BY id').all(a.id),
});

/** A 404 that says no more than it would for a ref that does not exist. */
function assertLikeMissing(
  res: { status: number; text: string },
  missing: { status: number; text: string },
  ref: string,
  what: string,
) {
  assert.equal(res.status, 404, `${what}: ${res.text}`);
  assert.equal(
    res.text.replaceAll(ref, 'REF'),
    missing.text.replaceAll(NO_SUCH_REF, 'REF'),
    `${what}: the same answer as for no task at all`,
  );
  assert.ok(!res.text.includes(MARK) && !res.text.includes(a.email), `${what}: nothing of A's`);
}

before(async () => {
  server = await startTestServer({ env: { SANDBOX_DELAY_MS: String(DELAY_MS), HUMAN_SCHEDULER_TICK_MS: '60000' } });
  a = await party('a');
  b = await party('b');
  w = new ConsoleClient(server);
  assert.equal((await w.signUp('tenancy-w@example.org')).status, 303);
  const wId = server.app.db
    .prepare('SELECT id FROM accounts WHERE email = ?')
    .pluck()
    .get('tenancy-w@example.org') as number;
  for (const id of [wId, b.id])
    verifyWorker(server.app.db, id, [{ country_iso: 'FR', city_slug: '*' }], server.clock.ms);

  const ordered = async (key: string, claim: string, idem = randomUUID()) => {
    const res = await api('POST', '/tasks', key, order(claim), { 'idempotency-key': idem });
    assert.equal(res.status, 201, res.text);
    return res.json.data.ref as string;
  };
  refs.delivered = await ordered(a.keys.test, `${MARK} the shop is open on Sundays`);
  await tick(3 * DELAY_MS); // sandbox: dispatched, in progress, delivered with synthetic evidence
  refs.pending = await ordered(a.keys.test, 'sandbox:stay_pending', idempotencyKey);
  refs.live = await ordered(a.keys.live, `${MARK} the shop is open on Mondays`);
  assert.equal(
    (await w.post(`/console/worker/tasks/${refs.live}/accept`, {}, { csrfFrom: '/console/worker' })).status,
    303,
  );
  assert.equal(
    (await w.post(`/console/worker/tasks/${refs.live}/start`, {}, { csrfFrom: `/console/worker/tasks/${refs.live}` }))
      .status,
    303,
  );

  const delivered = await api('GET', `/tasks/${refs.delivered}`, a.keys.test);
  assert.equal(delivered.json.data.status, 'delivered');
  evidenceIds = (
    (await api('GET', `/tasks/${refs.delivered}/evidence`, a.keys.test)).json.data as Array<{
      id: string;
      type: string;
    }>
  )
    .filter((e) => e.type !== 'note')
    .map((e) => e.id);
  assert.ok(evidenceIds.length > 0, 'the sandbox delivered photos');
  assert.equal(
    server.app.db.prepare('SELECT status FROM human_tasks WHERE ref = ?').pluck().get(refs.live),
    'in_progress',
  );
});
after(async () => {
  for (const c of mcpClients) await c.close().catch(() => {});
  await server?.cleanup();
});

describe('human tasks over REST', () => {
  const reads = (ref: string) => [`/tasks/${ref}`, `/tasks/${ref}/result`, `/tasks/${ref}/evidence`];

  test("every read of A's task with B's keys (same or other environment) is 404, like no task at all", async () => {
    for (const key of [b.keys.test, b.keys.live]) {
      for (const [ref, path] of Object.values(refs).flatMap((r) => reads(r).map((p) => [r, p] as const))) {
        const missing = await api('GET', path.replace(ref, NO_SUCH_REF), key);
        assertLikeMissing(await api('GET', path, key), missing, ref, `GET ${path}`);
      }
      for (const evd of evidenceIds) {
        const path = `/tasks/${refs.delivered}/evidence/${evd}`;
        assertLikeMissing(
          await api('GET', path, key),
          await api('GET', `/tasks/${NO_SUCH_REF}/evidence/${evd}`, key),
          refs.delivered,
          `GET ${path}`,
        );
      }
    }
    // What A gets, for contrast: the same paths serve A.
    for (const path of reads(refs.delivered)) assert.equal((await api('GET', path, a.keys.test)).status, 200, path);
    assert.equal((await api('GET', `/tasks/${refs.delivered}/evidence/${evidenceIds[0]}`, a.keys.test)).status, 200);
  });

  test("an evidence id of A's is not reachable through a task of B's", async () => {
    const own = await api(
      'POST',
      '/tasks',
      b.keys.test,
      { ...order('sandbox:stay_pending'), spec: { claim: 'sandbox:stay_pending', subject: 'B only' } },
      { 'idempotency-key': randomUUID() },
    );
    assert.equal(own.status, 201);
    for (const evd of evidenceIds) {
      const res = await api('GET', `/tasks/${own.json.data.ref}/evidence/${evd}`, b.keys.test);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.json.error.code, 'not_found');
    }
  });

  test("B cannot cancel or dispute A's tasks, and they are left as they were; A can", async () => {
    const states = Object.fromEntries(Object.values(refs).map((r) => [r, taskState(r)]));
    for (const key of [b.keys.test, b.keys.live]) {
      for (const ref of Object.values(refs)) {
        const cancel = await api('POST', `/tasks/${ref}/cancel`, key, { reason: 'other' });
        assertLikeMissing(
          cancel,
          await api('POST', `/tasks/${NO_SUCH_REF}/cancel`, key, { reason: 'other' }),
          ref,
          `cancel ${ref}`,
        );
        const dispute = { reason: 'wrong_answer', statement: 'The shop was closed when I went there myself.' };
        assertLikeMissing(
          await api('POST', `/tasks/${ref}/dispute`, key, dispute),
          await api('POST', `/tasks/${NO_SUCH_REF}/dispute`, key, dispute),
          ref,
          `dispute ${ref}`,
        );
      }
    }
    for (const ref of Object.values(refs)) assert.deepEqual(taskState(ref), states[ref], `${ref} unchanged`);
    // The refusals were about whose task it is, not its state: A can do both.
    assert.equal((await api('POST', `/tasks/${refs.pending}/cancel`, a.keys.test, { reason: 'other' })).status, 200);
    const disputed = await api('POST', `/tasks/${refs.delivered}/dispute`, a.keys.test, {
      reason: 'wrong_answer',
      statement: 'The shop was closed when I went there myself.',
    });
    assert.equal(disputed.status, 200, disputed.text);
  });

  test("B's task list never shows A's tasks", async () => {
    for (const key of [b.keys.test, b.keys.live]) {
      const list = await api('GET', '/tasks?limit=100', key);
      assert.equal(list.status, 200);
      for (const ref of Object.values(refs)) assert.ok(!list.text.includes(ref), ref);
      assert.ok(!list.text.includes(MARK));
    }
    assert.ok((await api('GET', '/tasks?limit=100', a.keys.test)).text.includes(refs.delivered), "A's own list does");
  });

  test("an Idempotency-Key is the account's own: B reusing A's gets its own new task, never A's answer nor a 422", async () => {
    const same = await api('POST', '/tasks', b.keys.test, order('sandbox:stay_pending'), {
      'idempotency-key': idempotencyKey,
    });
    assert.equal(same.status, 201, same.text);
    assert.notEqual(same.json.data.ref, refs.pending);
    assert.equal(same.headers.get('idempotent-replayed'), null);
    const other = await api('POST', '/tasks', b.keys.live, order('another order'), {
      'idempotency-key': idempotencyKey,
    });
    assert.equal(other.status, 201, `a different body is not "reused" across accounts: ${other.text}`);
  });
});

test("human tasks over MCP: every task tool on A's refs is not_found, like no task; list_tasks shows none of them", async () => {
  const states = Object.fromEntries(Object.values(refs).map((r) => [r, taskState(r)]));
  for (const key of [b.keys.test, b.keys.live]) {
    const client = await mcp(key);
    const calls: Array<[string, (ref: string) => Record<string, unknown>]> = [
      ['get_task', (ref) => ({ ref })],
      ['get_task_result', (ref) => ({ ref })],
      ['get_task_evidence', (ref) => ({ ref })],
      ['cancel_task', (ref) => ({ ref, reason: 'other' })],
      [
        'dispute_task',
        (ref) => ({ ref, reason: 'wrong_answer', statement: 'The shop was closed when I went there myself.' }),
      ],
    ];
    for (const [name, args] of calls) {
      const missing = (await client.callTool({ name, arguments: args(NO_SUCH_REF) })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      for (const ref of Object.values(refs)) {
        const res = (await client.callTool({ name, arguments: args(ref) })) as {
          isError?: boolean;
          content: Array<{ text: string }>;
        };
        assert.equal(res.isError, true, `${name} ${ref}`);
        const text = res.content[0]!.text;
        assert.equal(JSON.parse(text).error.code, 'not_found', `${name}: ${text}`);
        assert.equal(
          text.replaceAll(ref, 'REF'),
          missing.content[0]!.text.replaceAll(NO_SUCH_REF, 'REF'),
          `${name}: as for no task`,
        );
        assert.ok(!text.includes(MARK));
      }
    }
    const list = (await client.callTool({ name: 'list_tasks', arguments: { limit: 100 } })) as {
      structuredContent: { tasks: Array<{ ref: string }> };
    };
    const listed = list.structuredContent.tasks.map((t) => t.ref);
    for (const ref of Object.values(refs)) assert.ok(!listed.includes(ref), ref);
  }
  for (const ref of Object.values(refs)) assert.deepEqual(taskState(ref), states[ref], `${ref} unchanged`);
});

test('balance and ledger: each sees its own figures and entries only, over REST and in the console', async () => {
  const db = server.app.db;
  const openHeld = (id: number) =>
    db
      .prepare("SELECT ifnull(sum(amount), 0) FROM human_holds WHERE account_id = ? AND status = 'open'")
      .pluck()
      .get(id) as number;
  const ownRefs = (id: number) =>
    new Set(db.prepare('SELECT ref FROM human_tasks WHERE account_id = ?').pluck().all(id) as string[]);
  for (const [me, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const ledger = await api('GET', '/ledger?limit=100', me.keys.live);
    assert.equal(ledger.status, 200);
    const entries = ledger.json.data as Array<{ task_ref: string | null; memo: string }>;
    assert.ok(entries.length >= 2, 'a top-up and a hold at least');
    const mine = ownRefs(me.id);
    for (const e of entries)
      assert.ok(e.task_ref === null || mine.has(e.task_ref), `${me.email}'s ledger shows ${e.task_ref}, not its task`);
    for (const ref of ownRefs(other.id)) assert.ok(!ledger.text.includes(ref), `${me.email}'s ledger mentions ${ref}`);
    const balance = (await api('GET', '/balance', me.keys.live)).json.data;
    assert.deepEqual(
      [balance.held_cents, balance.available_cents],
      [openHeld(me.id), 10_000 - openHeld(me.id)],
      `${me.email}'s own balance`,
    );
    const page = await me.console.get('/console/balance');
    assert.match(page.text, new RegExp(`data-available="${balance.available_cents}"`));
    assert.match(page.text, new RegExp(`data-held="${balance.held_cents}"`));
    for (const ref of ownRefs(other.id))
      assert.ok(!page.text.includes(ref), `${me.email}'s balance page mentions ${ref}`);
    assert.ok(!page.text.includes(other.email));
  }
  assert.ok((await a.console.get('/console/balance')).text.includes(refs.live), "A's page does list its live task");
  assert.ok(openHeld(a.id) > 0, 'A has money held: the comparison above is not of zeros');
});

describe('keys in the console', () => {
  const keyIds = (accountId: number) =>
    server.app.db
      .prepare('SELECT id FROM api_keys WHERE account_id = ? ORDER BY id')
      .pluck()
      .all(accountId) as number[];
  const keyRows = (accountId: number) =>
    server.app.db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY id').all(accountId) as Array<
      Record<string, unknown>
    >;
  /** What B must not change: all of a key but its last use, which A's own earlier requests write behind. */
  const keyIdentities = (accountId: number) => keyRows(accountId).map((row) => withoutWrittenBehind('api_keys', row));

  test("B cannot rotate or revoke A's keys: 404 like a key that does not exist, and A's keys keep working", async () => {
    const before = keyIdentities(a.id);
    assert.ok(before.length >= 4 && before.every((k) => k.revoked_at === null), 'A has live keys to protect');
    const count = server.app.db.prepare('SELECT count(*) FROM api_keys').pluck().get();
    const missing = await b.console.post('/console/keys/999999/revoke', {}, { csrfFrom: '/console/keys' });
    assert.equal(missing.status, 404);
    for (const id of keyIds(a.id)) {
      for (const [action, fields] of [
        ['rotate', { grace: 'now' }],
        ['revoke', {}],
      ] as const) {
        const res = await b.console.post(`/console/keys/${id}/${action}`, fields, { csrfFrom: '/console/keys' });
        assert.equal(res.status, 404, `${action} ${id}`);
        assert.equal(
          res.text.replace(/name="csrf" value="[^"]+"/g, ''),
          missing.text.replace(/name="csrf" value="[^"]+"/g, ''),
          `${action}: as for no key`,
        );
      }
    }
    server.app.ctx.writeBehind.flush(); // the case that made this flaky, made certain: earlier uses land between the reads
    assert.deepEqual(keyIdentities(a.id), before, "A's keys not revoked, rotated, renamed or re-scoped");
    assert.equal(
      server.app.db.prepare('SELECT count(*) FROM api_keys').pluck().get(),
      count,
      'no key made by a rotation',
    );
    for (const key of [a.keys.test, a.keys.live]) assert.equal((await api('GET', '/tasks', key)).status, 200);
    assert.equal((await server.get('/funding/v1/sources', { 'x-api-key': a.keys.funding })).status, 200);
    assert.equal((await server.get('/impact/v1/', { authorization: `Bearer ${a.keys.impact}` })).status, 200);
  });

  test("B's key list never shows A's keys", async () => {
    const page = await b.console.get('/console/keys');
    assert.equal(page.status, 200);
    for (const row of keyRows(a.id) as Array<{ id: number; name: string; display_prefix: string }>) {
      assert.ok(!page.text.includes(row.display_prefix), row.display_prefix);
      assert.ok(!page.text.includes(`/console/keys/${row.id}/`), `no form for key ${row.id}`);
      assert.ok(!page.text.includes(`>${row.name}<`), row.name);
    }
    assert.ok(!page.text.includes(a.email));
  });
});

describe('sessions', () => {
  test("B signing out ends B's session only", async () => {
    const other = new ConsoleClient(server);
    assert.equal((await other.signIn(b.email)).status, 303, 'B signed in a second time, elsewhere');
    assert.equal((await other.post('/console/sign-out', {}, { csrfFrom: '/console/keys' })).status, 303);
    const aKeys = await a.console.get('/console/keys');
    assert.equal(aKeys.status, 200, 'A is still signed in');
    assert.match(aKeys.text, new RegExp(`Signed in as <strong>${a.email}</strong>`));
    assert.equal((await b.console.get('/console/keys')).status, 200, "and so is B's first session");
  });

  test("a session is bound to its account: each sees itself; a form of B's cannot act in A's session", async () => {
    assert.match((await b.console.get('/console/keys')).text, new RegExp(`Signed in as <strong>${b.email}</strong>`));
    const bToken = ConsoleClient.csrf((await b.console.get('/console/keys')).text);
    const aKey = server.app.db
      .prepare('SELECT id FROM api_keys WHERE account_id = ? ORDER BY id LIMIT 1')
      .pluck()
      .get(a.id) as number;
    // A's browser submits a form B prepared (B's token): refused before anything is looked at.
    const res = await a.console.post(`/console/keys/${aKey}/revoke`, { csrf: bToken });
    assert.equal(res.status, 403);
    // A's session with B's visitor cookie: the token of neither fits.
    const mixed = new ConsoleClient(server);
    mixed.cookies = new Map([
      ['trio_csrf', b.console.cookies.get('trio_csrf')!],
      ['trio_session', a.console.cookies.get('trio_session')!],
    ]);
    assert.equal((await mixed.post(`/console/keys/${aKey}/revoke`, { csrf: bToken })).status, 403);
    assert.equal(server.app.db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').pluck().get(aKey), null);
    // A key is not a session and a session is not a key.
    const keyAsCookie = new ConsoleClient(server);
    keyAsCookie.cookies = new Map([['trio_session', a.keys.test]]);
    assert.equal((await keyAsCookie.get('/console/keys')).status, 303);
    assert.equal((await api('GET', '/tasks', a.console.cookies.get('trio_session')!)).status, 401);
  });
});

test('worker pages: a verified worker who is not assigned gets 404 on the task and every action, and it is left as it was', async () => {
  const before = taskState(refs.live);
  const missing = await b.console.get(`/console/worker/tasks/${NO_SUCH_REF}`);
  assert.equal(missing.status, 404);
  const strip = (t: string) => t.replace(/name="csrf" value="[^"]+"/g, '');
  const show = await b.console.get(`/console/worker/tasks/${refs.live}`);
  assert.equal(show.status, 404);
  assert.equal(strip(show.text), strip(missing.text));
  for (const action of ['start', 'cannot-do']) {
    const res = await b.console.post(
      `/console/worker/tasks/${refs.live}/${action}`,
      { reason: 'I would rather not do it' },
      { csrfFrom: '/console/worker' },
    );
    assert.equal(res.status, 404, action);
    assert.ok(!res.text.includes(MARK));
  }
  const form = new FormData();
  form.set('csrf', ConsoleClient.csrf((await b.console.get('/console/worker')).text));
  form.set('confidence', '90');
  const deliver = await fetch(`${server.url}/console/worker/tasks/${refs.live}/deliver`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie: [...b.console.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  assert.equal(deliver.status, 404);
  assert.ok(!(await deliver.text()).includes(MARK));
  const queue = await b.console.get('/console/worker');
  assert.ok(!queue.text.includes(refs.live), "not in B's queue: it is W's");
  assert.deepEqual(taskState(refs.live), before);
  assert.equal((await w.get(`/console/worker/tasks/${refs.live}`)).status, 200, 'the assigned worker sees it');
});

test('allowances and tiers belong to their own account (funding) or key (impact)', async () => {
  setSubscription(server.app.db, a.id, 'pro', server.clock.ms);
  const funding = (key: string) => server.get('/funding/v1/sources', { 'x-api-key': key });
  const impact = (key: string) => server.get('/impact/v1/', { authorization: `Bearer ${key}` });
  const aFunding = await funding(a.keys.funding);
  const aImpact = await impact(a.keys.impact);
  assert.equal(aFunding.headers.get('x-api-tier'), 'pro');
  for (let i = 0; i < 3; i++) {
    const res = await funding(b.keys.funding);
    assert.equal(res.headers.get('x-api-tier'), 'basic', "A's plan is not B's");
    await impact(b.keys.impact);
  }
  const remaining = (res: { headers: Headers }, h: string) => Number(res.headers.get(h));
  assert.equal(
    remaining(await funding(a.keys.funding), 'x-quota-remaining'),
    remaining(aFunding, 'x-quota-remaining') - 1,
    "B's calls did not spend A's allowance",
  );
  assert.equal(
    remaining(await impact(a.keys.impact), 'x-ratelimit-remaining'),
    remaining(aImpact, 'x-ratelimit-remaining') - 1,
  );
  assert.match((await b.console.get('/console/keys')).text, /data-tier="basic"/);
  assert.match((await a.console.get('/console/keys')).text, /data-tier="pro"/);
});
