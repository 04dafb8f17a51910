/**
 * The router parses each operation's declared inputs (lib/http/operation.ts) before its handler runs:
 * a small service over a real socket, its operations declared with defineOperation, each handler
 * echoing the values it received. Refusals are the 400s of lib/validate.ts, rendered by the service's
 * renderError; the stages run in their declared order.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pino from 'pino';
import * as v from 'valibot';
import { createListener } from '../../../lib/http/adapter.ts';
import { trustNothing } from '../../../lib/http/client-address.ts';
import { HttpError } from '../../../lib/http/errors.ts';
import { defineOperation, type BodyParsing } from '../../../lib/http/operation.ts';
import { listen, type RunningServer } from '../../../lib/http/server.ts';
import { serviceRouter } from '../../../lib/http/service-router.ts';
import { jsonReply, type ApiRequest } from '../../../lib/http/types.ts';
import { enumParam, integerParam, stringParam } from '../../../lib/validate.ts';

const log = pino({ level: 'silent' });

const itemParams = v.object({ id: integerParam(1, 1000, 'An item number.') });
const itemQuery = v.object({
  limit: v.optional(integerParam(1, 50, 'How many.')),
  sort: v.optional(enumParam(['new', 'old'] as const, 'Order.')),
});
const slugParams = v.object({
  slug: stringParam({ max: 20, pattern: /^[a-z:/]+$/, accepts: 'a slug', description: 'A slug.' }),
});
const requiredQuery = v.object({
  q: stringParam({ max: 10, accepts: 'text of 1 to 10 characters', description: 'q' }),
});
const ThingBody = v.strictObject({ name: v.string(), count: v.pipe(v.number(), v.integer()) });

/** A JSON body reader in a test service's own terms: 415 for another media type, 400 for bad JSON. */
const jsonBody: BodyParsing = {
  async read(req, optional) {
    const raw = await req.body();
    if (raw.length === 0 && optional) return undefined;
    if (req.headers['content-type'] !== 'application/json')
      throw new HttpError(415, 'unsupported_media_type', 'Send JSON.');
    try {
      return JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      throw new HttpError(400, 'bad_request', 'The body is not JSON.');
    }
  },
  validate(schema, body) {
    const result = v.safeParse(schema, body);
    if (!result.success) throw new HttpError(400, 'bad_request', `Invalid body: ${result.issues[0].message}`);
    return result.output;
  },
};

/** The checks a write runs before its body: a caller header (401), and a refusal header before anything (403). */
const caller = (req: ApiRequest) => {
  if (req.headers['x-caller'] === undefined) throw new HttpError(401, 'unauthorized', 'Who are you?');
};
const refusesFirst = (req: ApiRequest) => {
  if (req.headers['x-refuse'] !== undefined) throw new HttpError(403, 'forbidden_scope', 'Refused first.');
};

const operations = [
  defineOperation({
    spec: {
      method: 'GET',
      path: '/items/:id',
      operationId: 'item',
      summary: 'An item',
      params: itemParams,
      query: itemQuery,
      responses: {},
    },
    handle(_req, { params, query }) {
      // Typed by the declared schemas: no casts. `id` and `limit` are numbers, `sort` a literal union.
      const id: number = params.id;
      const limit: number | undefined = query.limit;
      const sort: 'new' | 'old' | undefined = query.sort;
      return jsonReply(200, { id, limit, sort, types: [typeof id, typeof limit] });
    },
  }),
  defineOperation({
    spec: { method: 'GET', path: '/plain', operationId: 'plain', summary: 'No inputs', responses: {} },
    handle: (_req, input) => jsonReply(200, input),
  }),
  defineOperation({
    spec: {
      method: 'GET',
      path: '/slug/:slug',
      operationId: 'slug',
      summary: 'A slug',
      params: slugParams,
      responses: {},
    },
    handle: (_req, { params }) => jsonReply(200, { slug: params.slug }),
  }),
  defineOperation({
    spec: {
      method: 'GET',
      path: '/find',
      operationId: 'find',
      summary: 'Needs q',
      query: requiredQuery,
      responses: {},
    },
    handle: (_req, { query }) => jsonReply(200, { q: query.q }),
  }),
  defineOperation({
    spec: {
      method: 'POST',
      path: '/things/:id',
      operationId: 'thing',
      summary: 'A write',
      params: itemParams,
      body: ThingBody,
      responses: {},
    },
    before: refusesFirst,
    beforeBody: caller,
    handle(_req, { params, body }) {
      const count: number = body.count;
      return jsonReply(201, { id: params.id, name: body.name, count });
    },
  }),
  defineOperation({
    spec: {
      method: 'POST',
      path: '/optional',
      operationId: 'optional',
      summary: 'An optional body',
      body: ThingBody,
      bodyOptional: true,
      responses: {},
    },
    handle: (_req, { body }) => jsonReply(200, { sent: body !== undefined, name: body?.name ?? null }),
  }),
  defineOperation({
    spec: {
      method: 'POST',
      path: '/own',
      operationId: 'own',
      summary: 'Reads its own body',
      body: v.record(v.string(), v.unknown()),
      responses: {},
    },
    ownBody: true,
    async handle(req, { body }) {
      return jsonReply(200, { parsed: body === undefined, raw: (await req.body()).toString('utf8') });
    },
  }),
];

let server: RunningServer;
before(async () => {
  const router = serviceRouter({
    name: 'test',
    base: '/t',
    operations,
    body: jsonBody,
    access: () => {},
    renderError: (err) => jsonReply(err.status, { code: err.code, message: err.message, param: err.param ?? null }),
    log,
  });
  const listener = createListener({
    fetch: (req) => router.fetch(req),
    log,
    clock: Date.now,
    trustProxy: trustNothing,
    bodyLimitBytes: 4096,
  });
  server = await listen(listener, '127.0.0.1', 0);
});
after(() => server.stop(100));

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${server.url}/t${path}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test('the handler receives the values its schemas parse: integers as numbers, defaults absent', async () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['/items/7', { id: 7, types: ['number', 'undefined'] }],
    ['/items/7?limit=50&sort=old', { id: 7, limit: 50, sort: 'old', types: ['number', 'number'] }],
    ['/items/1000?sort=new', { id: 1000, sort: 'new', types: ['number', 'undefined'] }],
    ['/plain', { query: {}, params: {} }],
    ['/slug/eu%3Aa%2Fb', { slug: 'eu:a/b' }],
    ['/find?q=caf%C3%A9', { q: 'café' }],
  ];
  for (const [path, expected] of cases) {
    const res = await call(path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body, expected, path);
  }
});

test('the router refuses what the declared schemas do not accept, naming the parameter, with the same 400s as lib/validate.ts', async () => {
  const cases: Array<[string, string, string]> = [
    ['/items/7?limt=5', 'limt', "Unknown query parameter 'limt'. Accepted parameters: limit, sort."],
    ['/items/7?limit=51', 'limit', "Invalid query parameter 'limit': must be an integer from 1 to 50 (got '51')."],
    ['/items/7?limit=1e1', 'limit', "Invalid query parameter 'limit': must be an integer from 1 to 50 (got '1e1')."],
    ['/items/7?sort=NEW', 'sort', "Invalid query parameter 'sort': must be one of: new, old (got 'NEW')."],
    ['/items/7?limit=1&limit=2', 'limit', "Query parameter 'limit' is given more than once; give it once."],
    // itty-router keeps only 'x' of 'q=&q=x': the repeat is counted on the URL itself.
    ['/items/7?sort=&sort=new', 'sort', "Query parameter 'sort' is given more than once; give it once."],
    ['/items/0', 'id', "Invalid path parameter 'id': must be an integer from 1 to 1000 (got '0')."],
    ['/items/seven', 'id', "Invalid path parameter 'id': must be an integer from 1 to 1000 (got 'seven')."],
    ['/plain?x=1', 'x', "Unknown query parameter 'x'. This endpoint takes no query parameters."],
    ['/plain?api_key=1', 'api_key', "Unknown query parameter 'api_key'. This endpoint takes no query parameters."],
    ['/slug/%E0%A4%A', 'slug', "Path parameter 'slug' is not valid percent-encoding."],
    ['/slug/UPPER', 'slug', "Invalid path parameter 'slug': must be a slug (got 'UPPER')."],
    ['/find', 'q', "Missing required query parameter 'q': give text of 1 to 10 characters."],
    ['/find?q=', 'q', "Invalid query parameter 'q': must be text of 1 to 10 characters (got '')."],
  ];
  for (const [path, param, message] of cases) {
    const res = await call(path);
    assert.equal(res.status, 400, path);
    assert.deepEqual(res.body, { code: 'bad_request', message, param }, path);
  }
});

test('a body is read and validated after the checks declared before it, and handed over typed', async () => {
  const post = (path: string, headers: Record<string, string>, body?: string) =>
    call(path, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
  const json = { 'content-type': 'application/json' };
  const ok = await post('/things/3', { ...json, 'x-caller': 'me' }, '{"name":"a","count":2}');
  assert.deepEqual([ok.status, ok.body], [201, { id: 3, name: 'a', count: 2 }]);

  // Each request is wrong in several ways; the stage that runs first answers.
  const cases: Array<[string, Record<string, string>, string | undefined, number, string]> = [
    ['/things/3?x=1', { 'x-refuse': '1' }, 'not json', 403, 'forbidden_scope'], // `before` first
    ['/things/0?x=1', {}, 'not json', 400, 'bad_request'], // then the query (no caller: not yet asked)
    ['/things/0', {}, 'not json', 400, 'bad_request'], // then the path
    ['/things/3', {}, 'not json', 401, 'unauthorized'], // then `beforeBody`
    ['/things/3', { 'x-caller': 'me' }, 'not json', 415, 'unsupported_media_type'], // then the body
    ['/things/3', { ...json, 'x-caller': 'me' }, 'not json', 400, 'bad_request'],
    ['/things/3', { ...json, 'x-caller': 'me' }, '{"name":"a","count":2.5}', 400, 'bad_request'],
    ['/things/3', { ...json, 'x-caller': 'me' }, '{"name":"a","count":2,"extra":1}', 400, 'bad_request'],
  ];
  for (const [path, headers, body, status, code] of cases) {
    const res = await post(path, headers, body);
    assert.deepEqual([res.status, res.body.code], [status, code], `${path} ${JSON.stringify(headers)} ${body}`);
  }
  const message = (await post('/things/3', { ...json, 'x-caller': 'me' }, '{"name":"a"}')).body.message;
  assert.match(String(message), /^Invalid body: /);
});

test('an optional body may be left out; an operation reading its own body gets it untouched', async () => {
  const none = await call('/optional', { method: 'POST' });
  assert.deepEqual([none.status, none.body], [200, { sent: false, name: null }]);
  const some = await call('/optional', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"b","count":1}',
  });
  assert.deepEqual([some.status, some.body], [200, { sent: true, name: 'b' }]);
  const own = await call('/own', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not json' });
  assert.deepEqual([own.status, own.body], [200, { parsed: true, raw: 'not json' }]);
  const ownQuery = await call('/own?x=1', { method: 'POST', body: '{}' });
  assert.equal(ownQuery.status, 400, 'unknown query parameters are refused before an own-body handler too');
});

test('an operation that declares a body in a service that reads none is refused when the router is built', () => {
  assert.throws(
    () =>
      serviceRouter({
        name: 'nobody',
        base: '/n',
        operations: [operations[4]!],
        access: () => {},
        renderError: (err) => jsonReply(err.status, {}),
        log,
      }),
    /thing declares a body, and its service reads none/,
  );
});
