/**
 * /explore/tasks over HTTP against the real server: the playground for a signed-in account. What a
 * page shows is what the human API answers the same request (checked with a sandbox key of the same
 * account, which sees the same tasks); the playground's own key is made at the first order, listed in
 * the console, and checked and counted by the API like any key (revoked → the API's 401; its own
 * 120-a-minute bucket). Forms need the CSRF token; a double submit orders once; another account's
 * task is the API's 404; bad input is the API's 4xx on a page, never a 500.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createAccount, createKey, listKeys } from '../../../db/accounts.ts';
import { sessionStore } from '../../../db/sessions.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS,
  startHumanServer,
  type HumanServer,
} from '../human/harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server?.cleanup());
checkLedgerAfterEach(() => server);

const PARIS = 'capability=human.verify&location=FR%2Fparis&sla=standard';
let n = 0;

interface Player {
  client: ConsoleClient;
  accountId: number;
  email: string;
  key: string;
}

/** A signed-in account (a console session) and a sandbox key of its own to ask the API directly. */
function player(): Player {
  const email = `player${++n}-${process.pid}@example.org`;
  const account = createAccount(server.app.db, email, server.clock.ms);
  const { token } = sessionStore(server.app.db).create(account.id, server.clock.ms);
  const client = new ConsoleClient(server);
  client.cookies.set('trio_session', token);
  const { key } = createKey(
    server.app.db,
    { accountId: account.id, service: 'human', name: 'checks', environment: 'test' },
    server.clock.ms,
  );
  return { client, accountId: account.id, email, key };
}

const playgroundKeys = (accountId: number) =>
  listKeys(server.app.db, { accountId, service: 'human' }).filter((k) => k.name === 'Explorer playground');
/** The value of a form field of a page. */
const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}"[^>]* value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');

/** The order form of a quote page, filled in. */
async function orderForm(p: Player, spec: Record<string, string> = {}, quote = PARIS): Promise<Record<string, string>> {
  const page = await p.client.get(`/explore/tasks/quote?${quote}`);
  assert.equal(page.status, 200, page.text);
  const fields: Record<string, string> = {};
  for (const name of ['csrf', 'idempotency_key', 'capability', 'country_iso', 'city_slug', 'sla', 'quote_id'])
    fields[name] = hidden(page.text, name)!;
  fields.max_price_cents = hidden(page.text, 'max_price_cents')!;
  return { ...fields, 'spec.claim': 'The bakery is open on Sundays', 'spec.subject': 'Boulangerie Martin', ...spec };
}

async function order(p: Player, spec: Record<string, string> = {}): Promise<string> {
  const res = await p.client.post('/explore/tasks/order', await orderForm(p, spec));
  assert.equal(res.status, 303, res.text);
  const ref = /^\/explore\/tasks\/(tsk_[0-9A-Za-z]{20})$/.exec(res.headers.get('location') ?? '')?.[1];
  assert.ok(ref, `redirected to the task page: ${res.headers.get('location')}`);
  return ref;
}

const apiTasks = async (p: Player) =>
  (await server.call('GET', '/tasks', p.key)).json.data as Array<{ ref: string; status: string }>;

test('signed out: every page invites to sign in at the console and back; forms change nothing', async () => {
  const visitor = new ConsoleClient(server);
  for (const path of ['/explore/tasks', `/explore/tasks/quote?${PARIS}`, '/explore/tasks/tsk_00000000000000000000']) {
    const page = await visitor.get(path);
    assert.equal(page.status, 200, path);
    assert.match(page.text, /<a href="\/console\/sign-in">Sign in at the console<\/a>/);
    assert.match(page.text, /<a href="\/explore\/tasks">return to the tasks playground<\/a>/);
  }
  const tasksBefore = server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get();
  const keysBefore = server.app.db.prepare('SELECT count(*) FROM api_keys').pluck().get();
  const post = await visitor.post('/explore/tasks/order', {
    capability: 'human.verify',
    country_iso: 'FR',
    city_slug: 'paris',
    max_price_cents: '5000',
    'spec.claim': 'x',
    'spec.subject': 'y',
    idempotency_key: crypto.randomUUID(),
  });
  assert.equal(post.status, 403);
  assert.match(post.text, /Sign in at the console/);
  assert.equal(server.app.db.prepare('SELECT count(*) FROM human_tasks').pluck().get(), tasksBefore);
  assert.equal(server.app.db.prepare('SELECT count(*) FROM api_keys').pluck().get(), keysBefore);
});

test('a person signed up through the console gets the playground; looking makes no key', async () => {
  const client = new ConsoleClient(server);
  const email = `signup-${process.pid}@example.org`;
  assert.equal((await client.signUp(email)).status, 303);
  const page = await client.get('/explore/tasks');
  assert.equal(page.status, 200);
  assert.ok(page.text.includes(`Signed in as <strong>${escapeHtml(email)}</strong>`));
  const catalogue = (await server.call('GET', '/capabilities', null)).json.data as Array<{
    id: string;
    title: string;
    slas: Array<{ code: string }>;
    live_geographies: Array<{ country_iso: string; city_slug: string }>;
  }>;
  for (const c of catalogue) {
    assert.ok(page.text.includes(`<option value="${c.id}"`), `task type ${c.id} offered`);
    for (const g of c.live_geographies)
      assert.ok(page.text.includes(`<option value="${g.country_iso}/${g.city_slug}"`), `${g.city_slug} offered`);
    for (const s of c.slas) assert.ok(page.text.includes(`<option value="${s.code}"`));
  }
  assert.match(page.text, /No sandbox tasks yet/);
  const id = server.app.db.prepare('SELECT id FROM accounts WHERE email = ?').pluck().get(email) as number;
  assert.deepEqual(playgroundKeys(id), [], 'no key until the first order');
});

test("the quote page shows the API's quote for the same request, and its order form", async () => {
  const p = player();
  const page = await p.client.get(`/explore/tasks/quote?${PARIS}`);
  const api = (
    await server.call('POST', '/quote', null, {
      capability: 'human.verify',
      location: { country_iso: 'FR', city_slug: 'paris' },
      sla: 'standard',
    })
  ).json.data;
  assert.equal(page.status, 200);
  assert.equal(api.status, 'quoted');
  assert.ok(
    page.text.includes(
      `<h1>Quote: €${(api.price_cents / 100).toFixed(2)} (${api.price_cents.toLocaleString('en-GB')} cents)</h1>`,
    ),
  );
  assert.ok(page.text.includes(`datetime="${api.due_at}"`), 'due time');
  assert.ok(page.text.includes(`datetime="${api.expires_at}"`), 'quote expiry');
  // Who is available, as the API says (the demo has people on duty in Paris).
  assert.equal(api.availability.available_now, true);
  assert.ok(page.text.includes(`data-available="yes">${api.availability.people} verified people on duty here`));
  assert.equal(hidden(page.text, 'quote_id'), api.quote_id);
  assert.equal(hidden(page.text, 'max_price_cents'), String(api.price_cents));
  assert.match(
    hidden(page.text, 'idempotency_key')!,
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  const again = await p.client.get(`/explore/tasks/quote?${PARIS}`);
  assert.notEqual(
    hidden(again.text, 'idempotency_key'),
    hidden(page.text, 'idempotency_key'),
    'a new Idempotency-Key per rendering',
  );
  assert.match(page.text, /name="spec\.claim"/);
  assert.match(page.text, /name="spec\.subject"/);
});

test("a refused quote shows the API's reason and alternatives, each quotable", async () => {
  const p = player();
  const page = await p.client.get('/explore/tasks/quote?capability=human.verify&location=FR%2Flille&sla=standard');
  const api = (
    await server.call('POST', '/quote', null, {
      capability: 'human.verify',
      location: { country_iso: 'FR', city_slug: 'lille' },
      sla: 'standard',
    })
  ).json.data;
  assert.equal(page.status, 200);
  assert.equal(api.status, 'refused');
  assert.ok(page.text.includes(`No quote: ${api.reason.replace(/_/g, ' ')}`));
  assert.ok(page.text.includes(escapeHtml(api.message)));
  assert.doesNotMatch(page.text, /action="\/explore\/tasks\/order"/, 'nothing to order');
  const links = [...page.text.matchAll(/<ul class="alternatives">[\s\S]*?<\/ul>/g)][0]![0].match(/href="[^"]+"/g)!;
  assert.equal(links.length, api.alternatives.length);
  const first = await p.client.get(links[0]!.slice(6, -1).replace(/&amp;/g, '&'));
  assert.equal(first.status, 200);
  assert.match(first.text, /<h1>Quote: /);
});

test('ordering makes the playground key, redirects to the task, and the task page is what the API serves', async () => {
  const p = player();
  const ref = await order(p);
  const keys = playgroundKeys(p.accountId);
  assert.equal(keys.length, 1);
  assert.equal(keys[0]!.environment, 'test');
  assert.equal(keys[0]!.scopes, 'tasks:read tasks:write');
  const consoleKeys = await p.client.get('/console/keys');
  assert.match(consoleKeys.text, /Explorer playground/, 'listed in the console like any key');

  const pending = await p.client.get(`/explore/tasks/${ref}`);
  const task = (await server.call('GET', `/tasks/${ref}`, p.key)).json.data;
  assert.equal(task.status, 'pending');
  assert.equal(task.environment, 'sandbox');
  assert.match(pending.text, /class="state state-pending">Pending</);
  assert.ok(pending.text.includes(`data-poll-after="${task.poll_after_s}"`), "watches by the API's poll_after_s");
  assert.match(pending.text, /<script src="\/explore\/assets\/tasks.js" defer><\/script>/);
  assert.ok(pending.text.includes(`<a href="/explore/tasks/${ref}">Refresh</a>`), 'a refresh link without JavaScript');
  assert.match(pending.text, /action="\/explore\/tasks\/[^"]+\/cancel"/, 'pending: cancel offered');
  assert.doesNotMatch(pending.text, /\/dispute"/);
  assert.ok(
    pending.text.includes(`${(task.price_cents / 100).toFixed(2)} (${task.price_cents.toLocaleString('en-GB')} cents)`),
  );
  const list = await p.client.get('/explore/tasks');
  assert.ok(list.text.includes(`href="/explore/tasks/${ref}"`), 'listed on the first page');

  await advance(server, 3 * SANDBOX_DELAY_MS);
  const delivered = await p.client.get(`/explore/tasks/${ref}`);
  const now = (await server.call('GET', `/tasks/${ref}`, p.key)).json.data;
  const result = (await server.call('GET', `/tasks/${ref}/result`, p.key)).json.data;
  const evidence = (await server.call('GET', `/tasks/${ref}/evidence`, p.key)).json.data as Array<{
    id: string;
    type: string;
    sha256?: string;
    media_type?: string;
    text?: string;
  }>;
  assert.equal(now.status, 'delivered');
  assert.match(delivered.text, /class="state state-delivered">Delivered</);
  for (const at of [now.created_at, now.dispatched_at, now.started_at, now.delivered_at])
    assert.ok(delivered.text.includes(`datetime="${at}"`), `history has ${at}`);
  assert.doesNotMatch(delivered.text, /data-poll-after/, 'nothing more to wait for');
  for (const [field, value] of Object.entries(result.answer))
    assert.ok(delivered.text.includes(`<dt>${field}</dt><dd>${escapeHtml(String(value))}</dd>`), `answer ${field}`);
  assert.ok(
    delivered.text.includes(
      `${(result.confidence_bps / 100).toLocaleString('en-GB')} % (${result.confidence_bps.toLocaleString('en-GB')} basis points)`,
    ),
  );
  assert.match(delivered.text, /action="\/explore\/tasks\/[^"]+\/dispute"/, 'delivered: dispute offered');
  assert.doesNotMatch(delivered.text, /\/cancel"/);

  const photo = evidence.find((e) => e.type === 'photo')!;
  assert.ok(delivered.text.includes(`<img src="/explore/tasks/${ref}/evidence/${photo.id}"`));
  const bytes = await server.request('GET', `/explore/tasks/${ref}/evidence/${photo.id}`, {
    headers: { cookie: `trio_session=${p.client.cookies.get('trio_session')}` },
  });
  assert.equal(bytes.status, 200);
  assert.equal(bytes.headers.get('content-type'), photo.media_type);
  assert.equal(createHash('sha256').update(bytes.bytes).digest('hex'), photo.sha256, "the API's bytes");
  assert.equal(bytes.headers.get('x-content-type-options'), 'nosniff');
  const note = evidence.find((e) => e.type === 'note')!;
  assert.ok(delivered.text.includes(escapeHtml(note.text!)));
});

test("a form without its CSRF token, or with another session's, orders nothing", async () => {
  const p = player();
  const other = player();
  const fields = await orderForm(p);
  const { csrf, ...withoutToken } = fields;
  const missing = await p.client.post('/explore/tasks/order', withoutToken);
  assert.equal(missing.status, 403);
  assert.match(missing.text, /did not come from this site/);
  const foreign = await p.client.post('/explore/tasks/order', { ...fields, csrf: (await orderForm(other)).csrf! });
  assert.equal(foreign.status, 403);
  assert.ok(csrf);
  assert.deepEqual(await apiTasks(p), [], 'nothing ordered');
  assert.deepEqual(playgroundKeys(p.accountId), [], 'and no key made');
});

test('submitting the same order form twice, even at once, orders one task', async () => {
  const p = player();
  const fields = await orderForm(p);
  const [a, b] = await Promise.all([
    p.client.post('/explore/tasks/order', fields),
    p.client.post('/explore/tasks/order', fields),
  ]);
  const c = await p.client.post('/explore/tasks/order', fields);
  for (const res of [a, b, c]) assert.equal(res.status, 303, res.text);
  assert.equal(a.headers.get('location'), b.headers.get('location'));
  assert.equal(a.headers.get('location'), c.headers.get('location'));
  assert.equal((await apiTasks(p)).length, 1);
  assert.equal(playgroundKeys(p.accountId).length, 1, 'one key for both');
  const fresh = await orderForm(p);
  await p.client.post('/explore/tasks/order', fresh);
  assert.equal((await apiTasks(p)).length, 2, 'a newly rendered form orders again');
});

test("another account cannot see, download from or act on the task: the API's 404", async () => {
  const owner = player();
  const ref = await order(owner);
  await advance(server, 3 * SANDBOX_DELAY_MS);
  const photo = (
    (await server.call('GET', `/tasks/${ref}/evidence`, owner.key)).json.data as Array<{ id: string; type: string }>
  ).find((e) => e.type === 'photo')!;
  const stranger = player();
  const strangersOwn = await order(stranger); // so that the stranger's playground key exists and the API is asked
  assert.ok(strangersOwn);
  const page = await stranger.client.get(`/explore/tasks/${ref}`);
  assert.equal(page.status, 404);
  assert.ok(
    page.text.includes(`No task ${ref} for this key&#39;s account in the sandbox environment.`),
    "the API's message",
  );
  assert.ok(!page.text.includes('The bakery is open'));
  assert.equal((await stranger.client.get(`/explore/tasks/${ref}/evidence/${photo.id}`)).status, 404);
  const dispute = await stranger.client.post(
    `/explore/tasks/${ref}/dispute`,
    { reason: 'wrong_answer', statement: 'This is not what I saw there at all.' },
    { csrfFrom: '/explore/tasks/' + strangersOwn },
  );
  assert.equal(dispute.status, 404);
  assert.equal((await server.call('GET', `/tasks/${ref}`, owner.key)).json.data.status, 'delivered', 'untouched');
  const noKeyYet = player();
  assert.equal((await noKeyYet.client.get(`/explore/tasks/${ref}`)).status, 404);
});

test("cancel where the state allows it; a refused cancel is the API's 409", async () => {
  const p = player();
  const ref = await order(p, { 'spec.claim': 'sandbox:stay_pending' });
  const page = await p.client.get(`/explore/tasks/${ref}`);
  const cancelled = await p.client.post(`/explore/tasks/${ref}/cancel`, {
    csrf: hidden(page.text, 'csrf')!,
    reason: 'too_slow',
  });
  assert.equal(cancelled.status, 303);
  assert.equal(cancelled.headers.get('location'), `/explore/tasks/${ref}`);
  const task = (await server.call('GET', `/tasks/${ref}`, p.key)).json.data;
  assert.equal(task.status, 'cancelled');
  assert.deepEqual(task.cancellation, { reason: 'too_slow' });
  const after = await p.client.get(`/explore/tasks/${ref}`);
  assert.match(after.text, /class="state state-cancelled">Cancelled</);
  assert.match(after.text, /reason: too_slow/);
  assert.ok(after.text.includes(`datetime="${task.closed_at}"`));
  assert.doesNotMatch(after.text, /action="[^"]+\/cancel"/, 'no cancel button any more');
  const again = await p.client.post(`/explore/tasks/${ref}/cancel`, { csrf: hidden(page.text, 'csrf')! });
  assert.equal(again.status, 409);
  assert.match(again.text, /<code>invalid_state<\/code>/);
});

test("dispute a delivered answer: a too-short statement is the API's 400, a proper one disputes", async () => {
  const p = player();
  const ref = await order(p, { 'spec.claim': 'sandbox:dispute_refund' });
  await advance(server, 3 * SANDBOX_DELAY_MS);
  const page = await p.client.get(`/explore/tasks/${ref}`);
  const csrf = hidden(page.text, 'csrf')!;
  const short = await p.client.post(`/explore/tasks/${ref}/dispute`, {
    csrf,
    reason: 'wrong_answer',
    statement: 'too short',
  });
  const api = await server.call('POST', `/tasks/${ref}/dispute`, p.key, {
    reason: 'wrong_answer',
    statement: 'too short',
  });
  assert.equal(short.status, 400);
  assert.ok(short.text.includes(escapeHtml(api.json.error.message)));
  const ok = await p.client.post(`/explore/tasks/${ref}/dispute`, {
    csrf,
    reason: 'wrong_answer',
    statement: 'The shop was closed when I walked past on Sunday.',
  });
  assert.equal(ok.status, 303);
  const disputed = await p.client.get(`/explore/tasks/${ref}`);
  assert.match(disputed.text, /class="state state-disputed">Disputed</);
  assert.match(disputed.text, /reason: wrong_answer/);
  await advance(server, SANDBOX_DELAY_MS);
  const refunded = await p.client.get(`/explore/tasks/${ref}`);
  assert.match(refunded.text, /class="state state-refunded">Refunded</);
  assert.match(refunded.text, /dispute resolved: refund/);
});

test("the playground key is checked like any key: revoked in the console → the API's 401; the next order makes a new one", async () => {
  const p = player();
  const ref = await order(p);
  const [key] = playgroundKeys(p.accountId);
  const revoked = await p.client.post(`/console/keys/${key!.id}/revoke`, {}, { csrfFrom: '/console/keys' });
  assert.equal(revoked.status, 303);
  const page = await p.client.get(`/explore/tasks/${ref}`);
  assert.equal(page.status, 401);
  assert.match(page.text, /<code>key_revoked<\/code>, HTTP 401/);
  assert.match(page.text, /your next order here makes a new one/);
  const home = await p.client.get('/explore/tasks');
  assert.match(home.text, /key_revoked/, 'the list says so too');
  const second = await order(p);
  const keys = playgroundKeys(p.accountId);
  assert.equal(keys.length, 2);
  assert.equal(keys.filter((k) => k.revoked_at === null).length, 1);
  for (const r of [ref, second])
    assert.equal((await p.client.get(`/explore/tasks/${r}`)).status, 200, 'both tasks of the account are seen again');
});

test('the playground key has its own bucket of 120 calls a minute, like any key', async () => {
  const p = player();
  const ref = await order(p, { 'spec.claim': 'sandbox:stay_pending' });
  server.clock.advance(60_000); // a fresh minute; a pending task's page is one API call
  const statuses: number[] = [];
  for (let i = 0; i < 121; i++) statuses.push((await p.client.get(`/explore/tasks/${ref}`)).status);
  assert.deepEqual(statuses.slice(0, 120), Array(120).fill(200));
  assert.equal(statuses[120], 429);
  const limited = await p.client.get(`/explore/tasks/${ref}`);
  assert.match(limited.text, /<code>rate_limited<\/code>, HTTP 429/);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
  assert.equal(
    (await server.call('GET', `/tasks/${ref}`, p.key)).status,
    200,
    'another key of the account has its own bucket',
  );
  server.clock.advance(60_000);
});

test("bad input is the API's 4xx on a page, never a 500", async () => {
  const p = player();
  const ref = await order(p);
  const quoteCases: Array<[string, RegExp]> = [
    ['', /Missing required field &#39;capability&#39;/],
    ['capability=nope&location=FR%2Fparis', /capability/],
    ['capability=human.verify&location=garbage', /location\.country_iso/],
    ['capability=human.verify&location=FR%2Fparis&sla=turbo', /sla/],
  ];
  for (const [query, message] of quoteCases) {
    const page = await p.client.get(`/explore/tasks/quote?${query}`);
    assert.equal(page.status, 400, query);
    assert.match(page.text, message);
  }
  for (const [path, status] of [
    ['/explore/tasks/nope', 400],
    ['/explore/tasks/tsk_00000000000000000000', 404],
    [`/explore/tasks/${ref}/evidence/evd_x`, 400],
    [`/explore/tasks/${ref}/evidence/evd_999999`, 404],
    ['/explore/tasks/%E0%A4%A', 400],
  ] as const) {
    assert.equal((await p.client.get(path)).status, status, path);
  }
  const orders: Array<[Record<string, string>, number, RegExp]> = [
    [{ max_price_cents: 'abc' }, 400, /max_price_cents/],
    [{ max_price_cents: '100' }, 409, /price_above_max/],
    [{ idempotency_key: '' }, 400, /idempotency_key_required/],
    [{ 'spec.claim': '' }, 400, /Missing required field &#39;spec\.claim&#39;/],
    [{ country_iso: 'fr' }, 400, /location\.country_iso/],
    [{ quote_id: 'qt_forged' }, 400, /quote/],
  ];
  for (const [change, status, message] of orders) {
    const res = await p.client.post('/explore/tasks/order', { ...(await orderForm(p)), ...change });
    assert.equal(res.status, status, JSON.stringify(change) + res.text.slice(0, 0));
    assert.match(res.text, message, JSON.stringify(change));
  }
  const json = await p.client.post('/explore/tasks/order', await orderForm(p), { contentType: 'application/json' });
  assert.equal(json.status, 415);
  assert.equal((await apiTasks(p)).length, 1, 'none of those ordered anything');
});
