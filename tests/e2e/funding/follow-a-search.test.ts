/**
 * Following a search (issue 27), end to end on the real demo: a grant seeker signs up on the console,
 * makes a funding key, registers a live webhook endpoint (a real local receiver) and saves searches
 * there and through the API; a new call imported later is notified once per saved search that matches
 * it, signed (checked with the Standard Webhooks reference library), and appears in the search's Atom
 * feed (parsed with feedsmith), whose ETag and Last-Modified change with it. Bounds and bad input.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { get } from 'node:http';
import { parseAtomFeed } from 'feedsmith';
import { Webhook } from 'standardwebhooks';
import { importFundingFile } from '../../../db/funding/import.ts';
import { ConsoleClient } from '../../helpers/console.ts';
import { accountWithKey } from '../../helpers/keys.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const DETAIL = join(import.meta.dirname, '..', '..', '..', 'data', 'funding', 'bdns', 'convocatoria-923546.json');
const QUERY = 'q=hidr%C3%B3geno&status=open&applicant_type=sme';

let server: TestServer;
let hooks: Receiver;
let dir: string;
let key: string;
let secret: string;
let client: ConsoleClient;

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.request(method, `/funding/v1${path}`, {
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A new BDNS call: a real detail (923546) under another number, title, window and beneficiaries. */
function newCall(id: string, title: string, types: string[], days = 60): string {
  const d = JSON.parse(readFileSync(DETAIL, 'utf8')) as Record<string, unknown>;
  const day = (n: number) => new Date(server.clock.ms + n * 86_400_000).toISOString().slice(0, 10);
  Object.assign(d, {
    codigoBDNS: id,
    descripcion: title,
    fechaRecepcion: day(0),
    fechaInicioSolicitud: day(0),
    fechaFinSolicitud: day(days),
    textInicio: null,
    textFin: null,
    tiposBeneficiarios: types.map((descripcion) => ({ descripcion })),
  });
  const path = join(dir, `convocatoria-${id}-${days}.json`);
  writeFileSync(path, JSON.stringify(d));
  return path;
}

const verified = (r: Receiver['received'][number]) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; data: { saved_search: { id: string }; call: { id: string; applicant_types: string[] } } };

before(async () => {
  server = await startTestServer({ env: { WEBHOOK_POLL_MS: '60000' } });
  // The reference library checks a delivery's timestamp against its own clock.
  server.clock.set(new Date().toISOString());
  hooks = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'trio-follow-'));
  client = new ConsoleClient(server);
  await client.signUp(`seeker-${process.pid}@example.org`);
  key = (await client.createKey('funding', 'my funding key')).key!;
  // A funding user registers an endpoint on the console's Webhooks page (live: other services' events).
  const made = await client.post(
    '/console/webhooks',
    { url: hooks.url, environment: 'live', event_types: 'funding.saved_search.matched' },
    { csrfFrom: '/console/webhooks' },
  );
  secret = /data-secret>(whsec_[^<]+)</.exec(made.text)![1]!;
});
after(async () => {
  await hooks.close();
  await server.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

test('saved on the console or by the API, a search is notified once per new call that matches it, and its feed shows it', async () => {
  // Saved on the console, from the address of an explorer page (blank fields and all).
  const saved = await client.post(
    '/console/saved-searches',
    { name: 'Hidrógeno para pymes', query: `http://localhost/explore/funding?${QUERY}&country=&budget_min=` },
    { csrfFrom: '/console/saved-searches' },
  );
  assert.equal(saved.status, 303, saved.text);
  const consoleId = /\/console\/saved-searches\/(ss_\w+)/.exec(saved.headers.get('location')!)![1]!;
  // By the API, a broader one: any call for large companies.
  const made = await api('POST', '/saved_searches', {
    name: 'Grandes empresas',
    query: 'applicant_type=large_company',
  });
  assert.equal(made.status, 201, made.text);
  assert.equal(made.headers.get('location'), `/funding/v1/saved_searches/${made.json.data.id}`);
  const listed = await api('GET', '/saved_searches');
  assert.deepEqual(
    listed.json.data.map((s: { id: string; query: string }) => [s.id, s.query]),
    [
      [made.json.data.id, 'applicant_type=large_company'],
      [consoleId, QUERY],
    ],
  );

  const feedUrl = `/funding/v1/search.atom?${QUERY}`;
  const before = await server.get(feedUrl);
  assert.equal(before.status, 200);
  const feedBefore = parseAtomFeed(before.text);
  const etag = before.headers.get('etag')!;
  assert.equal((await server.get(feedUrl, { 'if-none-match': etag })).status, 304);

  // A call old to the corpus that changes is not new: the demo's 876660 read again with another budget.
  const matching = newCall('990001', 'Ayudas al hidrógeno verde para pymes industriales', [
    'PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA',
    'GRAN EMPRESA',
  ]);
  const other = newCall('990002', 'Subvenciones a asociaciones culturales', [
    'PERSONAS JURÍDICAS QUE NO DESARROLLAN ACTIVIDAD ECONÓMICA',
  ]);
  server.clock.advance(1000);
  importFundingFile(server.app.db, 'bdns', matching, server.clock.ms);
  importFundingFile(server.app.db, 'bdns', other, server.clock.ms);
  await server.app.webhooks!.settle();

  const got = hooks.received.map(verified);
  assert.deepEqual(
    got.map((e) => [e.type, e.data.saved_search.id, e.data.call.id]).sort(),
    [
      ['funding.saved_search.matched', consoleId, 'bdns:990001'],
      ['funding.saved_search.matched', made.json.data.id, 'bdns:990001'],
    ].sort(),
  );
  assert.deepEqual(got[0]!.data.call.applicant_types, ['self_employed', 'sme', 'large_company']);

  // Read again, and read again with its deadline extended: still the same call, no new notification.
  server.clock.advance(1000);
  importFundingFile(server.app.db, 'bdns', matching, server.clock.ms);
  importFundingFile(
    server.app.db,
    'bdns',
    newCall(
      '990001',
      'Ayudas al hidrógeno verde para pymes industriales',
      ['GRAN EMPRESA', 'PYME Y PERSONAS FÍSICAS QUE DESARROLLAN ACTIVIDAD ECONÓMICA'],
      90,
    ),
    server.clock.ms,
  );
  await server.app.webhooks!.settle();
  assert.equal(hooks.received.length, 2, 'once per call and saved search');
  const history = await server.get('/funding/v1/calls/bdns%3A990001/history');
  assert.equal(history.json.data.length, 1);
  assert.match(history.json.data[0].description, /^deadline extended from /);

  // The saved search says what it was notified of, with the event that carried it.
  const detail = await api('GET', `/saved_searches/${consoleId}`);
  assert.equal(detail.json.data.notified.total, 1);
  assert.equal(detail.json.data.notified.recent[0].call_id, 'bdns:990001');
  const event = hooks.received.find((r) => r.json.data.saved_search.id === consoleId)!;
  assert.equal(detail.json.data.notified.recent[0].event_id, event.json.id);
  const page = await client.get(`/console/saved-searches/${consoleId}`);
  assert.match(page.text, /bdns:990001/);

  // The feed now lists it first; its validators changed, so the old ETag gets the new feed.
  const now = await server.get(feedUrl, { 'if-none-match': etag });
  assert.equal(now.status, 200);
  const feed = parseAtomFeed(now.text);
  assert.equal(feed.entries!.length, (feedBefore.entries ?? []).length + 1);
  const entry = feed.entries![0]!;
  assert.equal(entry.title?.value ?? entry.title, 'Ayudas al hidrógeno verde para pymes industriales');
  assert.deepEqual(
    entry.categories!.map((c) => c.term),
    ['self_employed', 'sme', 'large_company'],
  );
  assert.notEqual(now.headers.get('etag'), etag);
  assert.equal((await server.get(feedUrl, { 'if-modified-since': now.headers.get('last-modified')! })).status, 304);

  // Its links are where the reader reached this server (the Host it sent), and they answer.
  const host = new URL(server.url).host;
  const links = Object.fromEntries(entry.links!.map((l) => [`${l.rel} ${l.type}`, l.href!]));
  assert.equal(entry.id, `http://${host}/funding/v1/calls/bdns%3A990001`);
  assert.equal(links['alternate text/html'], `http://${host}/explore/funding/calls/bdns%3A990001`);
  for (const link of [entry.id!, links['alternate text/html']!, links['alternate application/json']!])
    assert.equal((await fetch(link)).status, 200, link);
  const proxied = parseAtomFeed(await withHost(feedUrl, 'Grants.Example.org'));
  assert.equal(proxied.entries![0]!.id, 'http://grants.example.org/funding/v1/calls/bdns%3A990001');
  const forged = parseAtomFeed(await withHost(feedUrl, 'evil.example/"><x'));
  assert.equal(
    forged.entries![0]!.id,
    'http://localhost/funding/v1/calls/bdns%3A990001',
    'a malformed Host is not echoed',
  );
});

test("saved searches are the account's own and bounded; bad input is refused by name and stores nothing", async () => {
  const other = accountWithKey(server.app.db, 'funding', server.clock.ms);
  const mine = (await api('GET', '/saved_searches')).json.data as Array<{ id: string }>;
  const theirs = await server.request('GET', `/funding/v1/saved_searches/${mine[0]!.id}`, {
    headers: { 'x-api-key': other.key },
  });
  assert.equal(theirs.status, 404);
  assert.equal(theirs.json.error, 'not_found');

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const cases: Array<[string, () => Promise<{ status: number; json: any }>, number, string, RegExp]> = [
    ['no key', () => server.request('GET', '/funding/v1/saved_searches'), 401, 'key_required', /X-API-Key/],
    [
      'a query the search refuses',
      () => api('POST', '/saved_searches', { name: 'x', query: 'status=shut' }),
      400,
      'bad_request',
      /status/,
    ],
    [
      'paging is not a search',
      () => api('POST', '/saved_searches', { name: 'x', query: 'q=a&cursor=abc' }),
      400,
      'bad_request',
      /cursor/,
    ],
    [
      'an empty query',
      () => api('POST', '/saved_searches', { name: 'x', query: ' ' }),
      400,
      'bad_request',
      /needs a query/,
    ],
    ['no name', () => api('POST', '/saved_searches', { query: 'q=agua' }), 400, 'bad_request', /name/],
    [
      'not JSON',
      () => api('POST', '/saved_searches', undefined, { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
      /JSON/,
    ],
    ['a malformed id', () => api('GET', '/saved_searches/nope'), 400, 'bad_request', /id/],
  ];
  for (const [name, call, status, code, message] of cases) {
    const res = await call();
    assert.equal(res.status, status, name);
    assert.equal(res.json.error, code, name);
    assert.match(res.json.message, message, name);
  }
  assert.equal((await api('GET', '/saved_searches')).json.data.length, mine.length, 'nothing stored');

  // At most 20: the 21st is refused, and deleting one makes room.
  for (let i = mine.length; i < 20; i++)
    assert.equal((await api('POST', '/saved_searches', { name: `s${i}`, query: `q=agua${i}` })).status, 201);
  const over = await api('POST', '/saved_searches', { name: 'one more', query: 'q=agua' });
  assert.equal(over.status, 409);
  assert.equal(over.json.error, 'limit_reached');
  assert.equal((await api('DELETE', `/saved_searches/${mine[0]!.id}`)).status, 204);
  assert.equal((await api('GET', `/saved_searches/${mine[0]!.id}`)).status, 404);
  assert.equal((await api('POST', '/saved_searches', { name: 'one more', query: 'q=agua' })).status, 201);

  // On the console: the limit and a query the search refuses are notices on the page; delete works.
  const full = await client.post(
    '/console/saved-searches',
    { name: 'x', query: 'q=sol' },
    { csrfFrom: '/console/saved-searches' },
  );
  assert.equal(full.status, 409);
  assert.match(full.text, /the most it may keep \(20\)/);
  const last = (await api('GET', '/saved_searches')).json.data[0].id as string;
  const gone = await client.post(
    `/console/saved-searches/${last}/delete`,
    {},
    { csrfFrom: `/console/saved-searches/${last}` },
  );
  assert.equal(gone.status, 303);
  const bad = await client.post(
    '/console/saved-searches',
    { name: 'x', query: 'sort=sideways' },
    { csrfFrom: '/console/saved-searches' },
  );
  assert.equal(bad.status, 400);
  assert.match(
    bad.text,
    /role="alert"[^<]*In &#39;query&#39;: Invalid query parameter &#39;sort&#39;|In 'query': Invalid query parameter 'sort'/,
  );
  const prefilled = await client.get('/console/saved-searches?query=q%3Dsol%26status%3Dopen');
  assert.match(prefilled.text, /name="query"[^>]*value="q=sol&amp;status=open"/);
  assert.equal((await client.get(`/console/saved-searches/${last}`)).status, 404);
});

/** A GET with the Host header a client behind a proxy sends (fetch may not set Host), its body as text. */
function withHost(path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(server.url + path, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}
