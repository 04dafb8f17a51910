/**
 * /explore/funding over HTTP against the real server and the demo corpus: the search page shows what
 * GET /funding/v1/search returns for the same parameters (calls, order, status, deadlines, total),
 * pages through the API's cursor to the same calls, counts like an API call against the visitor's
 * address (a signed-in visitor: against their account, under its tier) and says how much is left, shows the API's 400 and 429 with the API's status and message,
 * and the call page shows GET /funding/v1/calls/{id}. Bad input is a 4xx page, never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { createAccount, createKey, setSubscription } from '../../../db/accounts.ts';
import { sessionStore } from '../../../db/sessions.ts';
import { escapeHtml } from '../../../lib/html.ts';
import { searchQuery } from '../../../routes/funding/schemas.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  // The explorer's mechanics (paging, windows, a call's projects) on the trap fixtures' small corpus.
  server = await startTestServer({ inProcess: true, fundingCorpus: 'traps' });
});
after(async () => {
  await server?.cleanup();
});
// Each test starts in a fresh UTC minute: the anonymous per-minute allowance is whole again.
beforeEach(() => server.clock.advance(60_000));

interface ShownCall {
  id: string;
  title: string;
  block: string;
}

/** The calls a search page lists, in order. */
function shownCalls(page: string): ShownCall[] {
  return [...page.matchAll(/<li class="call">([\s\S]*?)<\/li>/g)].map((m) => {
    const link = /<a href="\/explore\/funding\/calls\/([^"]+)">([^<]*)<\/a>/.exec(m[1]!)!;
    return { id: decodeURIComponent(link[1]!), title: link[2]!, block: m[1]! };
  });
}

const remainingShown = (page: string) => Number(/(\d+) of \d+ calls left this minute/.exec(page)?.[1]);

test('the search page lists exactly the calls the API returns for the same parameters, with deadline and status', async () => {
  const query = 'status=open&sort=deadline&per_page=5';
  const page = await server.get(`/explore/funding?${query}`);
  const api = await server.get(`/funding/v1/search?${query}`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const shown = shownCalls(page.text);
  assert.deepEqual(
    shown.map((c) => c.id),
    api.json.data.map((c: { id: string }) => c.id),
    'same calls, same order',
  );
  assert.ok(shown.length > 0);
  for (const [i, call] of api.json.data.entries()) {
    const block = shown[i]!.block;
    assert.equal(shown[i]!.title, escapeHtml(call.title));
    assert.match(block, new RegExp(`status-${call.status}`));
    assert.match(block, /Open/);
    if (call.deadline) {
      const stamp = call.deadline_time ? `${call.deadline}T${call.deadline_time}` : call.deadline;
      assert.ok(block.includes(`datetime="${stamp}"`), `deadline ${stamp} shown for ${call.id}`);
      assert.ok(block.includes(call.time_zone), `its time zone (${call.time_zone}) is named`);
      if (!call.deadline_time) assert.match(block, /the source stated no time/);
    }
  }
  assert.match(page.text, new RegExp(`${api.json.meta.total} published calls? match`));
  assert.ok(
    page.text.includes(`href="/funding/v1/search?${escapeHtml(query)}"`),
    'the page links the API call it shows',
  );
});

test('a call closed by its deadline while its source still says open is shown as closed, with why', async () => {
  const page = await server.get('/explore/funding?status=closed&source=eu&per_page=100');
  const api = await server.get('/funding/v1/search?status=closed&source=eu&per_page=100');
  const stale = api.json.data.find(
    (c: { status: string; source_status: string | null }) => c.status === 'closed' && c.source_status === 'open',
  );
  assert.ok(stale, 'the demo corpus has a call its source still calls open');
  const block = shownCalls(page.text).find((c) => c.id === stale.id)!.block;
  assert.match(block, /Closed \(the source still says open; this is the status as it reads now, from the deadline\)/);
});

test('paging by the API cursor walks the same calls as the API, and the previous link goes back', async () => {
  const seen: string[] = [];
  let path: string | null = '/explore/funding?per_page=4';
  let pages = 0;
  while (path) {
    const page = await server.get(path);
    assert.equal(page.status, 200);
    seen.push(...shownCalls(page.text).map((c) => c.id));
    pages++;
    const next = /<a rel="next" href="([^"]+)"/.exec(page.text);
    path = next ? next[1]!.replace(/&amp;/g, '&') : null;
    if (pages === 2) {
      const prev = /<a rel="prev" href="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
      const back = await server.get(prev);
      assert.deepEqual(
        shownCalls(back.text).map((c) => c.id),
        seen.slice(0, 4),
        'previous page is page 1',
      );
    }
  }
  const all = await server.get('/funding/v1/search?per_page=100');
  assert.deepEqual(
    seen,
    all.json.data.map((c: { id: string }) => c.id),
  );
  assert.equal(pages, Math.ceil(all.json.meta.total / 4));
});

/** Walks a search page by its next links; returns the calls listed and every next link followed. */
async function walk(path: string): Promise<{ ids: string[]; links: string[] }> {
  const ids: string[] = [];
  const links: string[] = [];
  let next: string | null = path;
  while (next) {
    const page = await server.get(next);
    assert.equal(page.status, 200, `${next}: ${page.text}`);
    ids.push(...shownCalls(page.text).map((c) => c.id));
    const link = /<a rel="next" href="([^"]+)"/.exec(page.text);
    next = link ? link[1]!.replace(/&amp;/g, '&') : null;
    if (next) links.push(next);
  }
  return { ids, links };
}

const ids = (answer: { json: { data: Array<{ id: string }> } }) => answer.json.data.map((c) => c.id);

test("the form offers exactly the API's filters, each input labelled, the deadline window as date inputs", async () => {
  const page = await server.get('/explore/funding');
  const form = /<form class="filters funding-filters"[\s\S]*?<\/form>/.exec(page.text)![0];
  const names = [...form.matchAll(/<(?:input|select) name="([^"]+)"/g)].map((m) => m[1]!);
  const paging = ['page', 'cursor']; // carried by the pager's links, not typed
  assert.deepEqual(
    [...new Set(names)].toSorted(),
    Object.keys(searchQuery.entries)
      .filter((n) => !paging.includes(n))
      .toSorted(),
  );
  // A field after its words; a checkbox before them, on their line (issue 34).
  for (const name of names)
    assert.match(
      form,
      new RegExp(
        `<label>(?:[^<]+<(?:input|select) name="${name}"|<input name="${name}" type="checkbox"[^>]*> [^<]+</label>)`,
      ),
      `${name} has its label`,
    );
  for (const name of ['deadline_from', 'deadline_to', 'changed_since'])
    assert.match(form, new RegExp(`name="${name}" type="date"`));
});

test('who may apply: the boxes send one list to the API; the results say who may apply and how much', async () => {
  const page = await server.get(
    '/explore/funding?applicant_type=large_company&applicant_type=unstated&budget_min=1000000&budget_unstated=exclude&per_page=100',
  );
  assert.equal(page.status, 200, page.text.slice(0, 300));
  assert.match(page.text, /GET \/funding\/v1\/search\?applicant_type=large_company%2Cunstated&amp;budget_min=1000000/);
  const api = await server.get(
    '/funding/v1/search?applicant_type=large_company,unstated&budget_min=1000000&budget_unstated=exclude&per_page=100',
  );
  assert.deepEqual(
    shownCalls(page.text).map((c) => c.id),
    ids(api),
  );
  assert.ok(api.json.data.length > 0);
  assert.match(page.text, /name="applicant_type" type="checkbox" value="large_company" checked/);
  assert.match(page.text, /Large companies/);
  assert.match(page.text, /the source says: <q lang="es">[^<]*GRAN EMPRESA/);
  assert.match(
    page.text,
    /Follow this search: <a href="\/funding\/v1\/search.atom\?applicant_type=large_company%2Cunstated/,
  );
});

test('region=Madrid lists exactly the calls the API returns for it, and the form keeps the region', async () => {
  const query = 'region=Madrid&per_page=100';
  const page = await server.get(`/explore/funding?${query}`);
  const api = await server.get(`/funding/v1/search?${query}`);
  assert.equal(page.status, 200);
  assert.deepEqual(
    shownCalls(page.text).map((c) => c.id),
    ids(api),
  );
  assert.ok(api.json.data.length > 0, 'the demo corpus has calls in Madrid');
  for (const call of api.json.data) assert.match(call.region, /madrid/i, `${call.id} is in Madrid`);
  const all = await server.get('/funding/v1/search?per_page=100');
  assert.ok(all.json.data.length > api.json.data.length, 'the filter left other calls out');
  assert.match(page.text, /<input name="region" value="Madrid"/);
  assert.match(page.text, new RegExp(`${api.json.meta.total} published calls? match`));
});

test('a deadline window lists exactly the calls the API returns, both days included, and the form keeps it', async () => {
  const query = 'deadline_from=2026-12-15&deadline_to=2027-02-01&sort=deadline&per_page=100';
  const page = await server.get(`/explore/funding?${query}`);
  const api = await server.get(`/funding/v1/search?${query}`);
  assert.equal(page.status, 200);
  assert.deepEqual(
    shownCalls(page.text).map((c) => c.id),
    ids(api),
  );
  // Independently: the calls of the whole corpus whose served deadline falls in the window, edges included.
  const all = await server.get('/funding/v1/search?sort=deadline&per_page=100');
  const inWindow = all.json.data.filter(
    (c: { deadline: string | null }) => c.deadline !== null && c.deadline >= '2026-12-15' && c.deadline <= '2027-02-01',
  );
  assert.deepEqual(ids(api), ids({ json: { data: inWindow } }));
  const deadlines = api.json.data.map((c: { deadline: string }) => c.deadline);
  assert.ok(deadlines.includes('2026-12-15') && deadlines.includes('2027-02-01'), 'a call on each edge day is listed');
  assert.ok(inWindow.length < all.json.data.length);
  assert.match(page.text, /<input name="deadline_from" type="date" value="2026-12-15"/);
  assert.match(page.text, /<input name="deadline_to" type="date" value="2027-02-01"/);
});

test('paging keeps the region and the deadline window, and walks the same calls as the API', async () => {
  for (const query of [
    'region=Madrid&per_page=1',
    'deadline_from=2026-12-01&deadline_to=2027-03-31&per_page=3',
    'region=Madrid&deadline_to=2027-02-26&sort=-deadline&per_page=1',
  ]) {
    const { ids: seen, links } = await walk(`/explore/funding?${query}`);
    const api = await server.get(`/funding/v1/search?${query.replace(/per_page=\d+/, 'per_page=100')}`);
    assert.ok(links.length >= 1, `${query} has more than one page`);
    assert.deepEqual(seen, ids(api), query);
    for (const link of links) {
      const params = new URL(link, 'http://localhost').searchParams; // only the query matters
      for (const [name, value] of new URLSearchParams(query))
        assert.equal(params.get(name), value, `${link} keeps ${name}`);
    }
  }
});

test("a bad region or deadline gets the API's 400 message on a 400 page, with the form kept", async () => {
  for (const query of [
    'deadline_from=31%2F12%2F2026',
    'deadline_to=2027-02-30',
    'deadline_from=2027-03-01&deadline_to=2027-01-01',
    'region=' + 'x'.repeat(101),
    'region=%2A%2A',
  ]) {
    const page = await server.get(`/explore/funding?${query}`);
    const api = await server.get(`/funding/v1/search?${query}`);
    assert.equal(api.status, 400, query);
    assert.equal(page.status, 400, query);
    assert.match(api.json.message, /region|deadline_(from|to)/, `the API names the parameter for ${query}`);
    assert.ok(page.text.includes(escapeHtml(api.json.message)), `the API's message for ${query}`);
    assert.match(page.text, /<code>bad_request<\/code>, HTTP 400/);
    assert.match(page.text, /<form class="filters funding-filters"/);
  }
});

test("each page is one call on the visitor's anonymous allowance, and says what is left", async () => {
  const first = await server.get('/explore/funding');
  const direct = await server.get('/funding/v1/sources');
  const second = await server.get('/explore/funding?status=open');
  assert.match(first.text, /data-tier="anonymous"/);
  assert.match(first.text, /Anonymous tier:/);
  assert.match(first.text, /no daily quota for anonymous use/);
  const remaining = Number(direct.headers.get('x-ratelimit-remaining'));
  assert.equal(remainingShown(first.text), remaining + 1, 'the page counted like the API call after it');
  assert.equal(remainingShown(second.text), remaining - 1);
  assert.match(first.text, new RegExp(`of ${direct.headers.get('x-ratelimit-limit')} calls left this minute`));
});

test("a signed-in visitor searches under their account's tier, counted in the account's allowance like its keys", async () => {
  const db = server.app.db;
  const account = createAccount(db, `explorer-tier-${process.pid}@example.org`, server.clock.ms);
  const { key } = createKey(db, { accountId: account.id, service: 'funding', name: 'checks' }, server.clock.ms);
  const visitor = new ConsoleClient(server);
  visitor.cookies.set('trio_session', sessionStore(db).create(account.id, server.clock.ms).token);
  const dayLeft = (text: string) => Number(/(\d+) of \d+ calls left today/.exec(text)?.[1]);

  const before = await server.get('/funding/v1/search?q=energy', { 'x-api-key': key });
  assert.equal(before.headers.get('x-api-tier'), 'basic');
  const page = await visitor.get('/explore/funding?q=energy');
  assert.equal(page.status, 200, page.text);
  assert.match(page.text, /data-tier="basic"/);
  assert.match(page.text, /counted against your account's allowance/);
  assert.equal(
    dayLeft(page.text),
    Number(before.headers.get('x-quota-remaining')) - 1,
    "the page spent one call of the account's day",
  );
  const after = await server.get('/funding/v1/search?q=energy', { 'x-api-key': key });
  assert.equal(
    Number(after.headers.get('x-quota-remaining')),
    dayLeft(page.text) - 1,
    'and the key sees the same allowance',
  );

  setSubscription(db, account.id, 'pro', server.clock.ms);
  const pro = await visitor.get('/explore/funding?q=energy');
  assert.match(pro.text, /data-tier="pro"/, 'the plan is decided on every request, as for keys');

  const anonymous = await new ConsoleClient(server).get('/explore/funding?q=energy');
  assert.match(anonymous.text, /data-tier="anonymous"/, 'without a session the page is anonymous');
  assert.match(anonymous.text, /sign in<\/a> to search under your account's tier/);
});

test("bad filters get the API's 400 message on a 400 page, with the form kept", async () => {
  for (const query of ['country=Spain', 'q=-vino', 'per_page=0', 'status=pending', 'colour=red', 'page=2&cursor=abc']) {
    const page = await server.get(`/explore/funding?${query}`);
    const api = await server.get(`/funding/v1/search?${query}`);
    assert.equal(api.status, 400, query);
    assert.equal(page.status, 400, query);
    assert.ok(page.text.includes(escapeHtml(api.json.message)), `the API's message for ${query}`);
    assert.match(page.text, /<code>bad_request<\/code>, HTTP 400/);
    assert.match(page.text, /<form class="filters funding-filters"/);
  }
});

test('the text query is echoed escaped, never as markup', async () => {
  const page = await server.get(`/explore/funding?q=${encodeURIComponent('<script>alert(1)</script>')}`);
  assert.ok(page.status === 200 || page.status === 400);
  assert.ok(!page.text.includes('<script>alert(1)</script>'));
  assert.ok(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

test("when the minute's allowance is used up, the page is the API's 429 with its wait", async () => {
  let last;
  do last = await server.get('/funding/v1/sources');
  while (last.status === 200);
  assert.equal(last.status, 429);
  const page = await server.get('/explore/funding?status=open');
  const api = await server.get('/funding/v1/search?status=open');
  assert.equal(page.status, 429);
  assert.equal(page.headers.get('retry-after'), api.headers.get('retry-after'));
  assert.ok(page.text.includes(escapeHtml(api.json.message)));
  assert.match(page.text, /<code>rate_limited<\/code>, HTTP 429/);
  assert.match(page.text, new RegExp(`Try again in ${api.headers.get('retry-after')} s`));
  assert.match(page.text, /0 of 60 calls left this minute/);
});

test("a call's page shows what GET /calls/{id} returns: dates, amounts, source link, projects, credit", async () => {
  for (const id of ['eu:LIFE-2025-SAP-NAT', 'eu:HORIZON-CL4-2027-DIGITAL-EMERGING-01-12', 'bdns:866120']) {
    const page = await server.get(`/explore/funding/calls/${encodeURIComponent(id)}`);
    const api = await server.get(`/funding/v1/calls/${encodeURIComponent(id)}`);
    assert.equal(page.status, 200, id);
    const call = api.json.data;
    assert.ok(page.text.includes(`<h1>${escapeHtml(call.title)}</h1>`));
    assert.match(page.text, new RegExp(`status-${call.status}`));
    if (call.url) assert.ok(page.text.includes(`href="${escapeHtml(call.url)}"`), 'links the source');
    for (const cutoff of call.cutoffs)
      assert.ok(page.text.includes(`datetime="${cutoff.time ? `${cutoff.date}T${cutoff.time}` : cutoff.date}"`));
    if (call.cutoffs.length > 1) assert.match(page.text, /the next of several cut-offs/);
    for (const p of call.projects) assert.ok(page.text.includes(escapeHtml(p.title)), `project ${p.id}`);
    for (const n of call.notices) assert.ok(page.text.includes(escapeHtml(n.title)), `notice ${n.id}`);
    for (const a of call.attribution) assert.ok(page.text.includes(escapeHtml(a.credit)), `credit of ${a.source}`);
    if (call.budget !== null) assert.match(page.text, new RegExp(`€${call.budget.toLocaleString('en-GB')}`));
    if (call.summary) assert.ok(page.text.includes(escapeHtml(call.summary)));
  }
});

test("an unknown call is the API's 404; a malformed id its 400; neither is a 500", async () => {
  const missing = await server.get('/explore/funding/calls/eu%3ANOPE-1');
  assert.equal(missing.status, 404);
  assert.match(missing.text, /No published call with id &#39;eu:NOPE-1&#39;/);
  const malformed = await server.get('/explore/funding/calls/nonsense');
  const api = await server.get('/funding/v1/calls/nonsense');
  assert.equal(malformed.status, 400);
  assert.ok(malformed.text.includes(escapeHtml(api.json.message)));
  const badEncoding = await server.get('/explore/funding/calls/%E0%A4%A');
  assert.equal(badEncoding.status, 400);
  for (const path of [
    '/explore/funding?q=%22unbalanced',
    '/explore/funding?per_page=abc',
    '/explore/funding?cursor=%00',
    '/explore/funding?q=' + 'x'.repeat(300),
    '/explore/funding?country=E%C3',
  ]) {
    const page = await server.get(path);
    assert.ok(page.status >= 200 && page.status < 500, `${path} → ${page.status}`);
  }
});
