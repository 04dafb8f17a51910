/**
 * Requests for one operation: a fast-check arbitrary of plans (pure data: schema-valid values, picks
 * among real identifiers, a credential, and for mutated requests one to three mutations), and
 * `materialize`, which turns a plan into the bytes to send using what the World knows right now
 * (the caller's own task refs exist only once ordered). Each built request carries the contract's
 * verdict: `mustRefuse` says why the contract rejects it, when it does, so that a 2xx to it is a
 * finding too.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { HumanKey, World } from './world.ts';
import { applyAuth, BAD_AUTH, validAuthLabels } from './credentials.ts';
import { fixBody, isMcp, isObject, OMIT, pickFrom, realValue } from './real-values.ts';
import {
  badNumbers,
  encodeLoose,
  hostilePathSegment,
  hostileUrlValue,
  nastyStrings,
  nonObjectBodies,
  wrongTypeValue,
  type UrlValue,
} from './mutations.ts';
import { routedPath } from './error-shapes.ts';
import { decodePath, decodeQuery, jsonVerdict, paramVerdict, type Operation } from './operations.ts';
import type { RawRequest } from './raw-http.ts';
import { valueArbitrary, type Schema } from './schema-arbitrary.ts';

/** What the fuzzer learnt from the running server before building arbitraries. */
export interface Catalogue {
  /** Human capability id → its spec_schema (GET /capabilities). */
  specSchemas: Record<string, Schema>;
  /** MCP tools (tools/list): name and input schema. */
  tools: Array<{ name: string; inputSchema: Schema }>;
}

type Mutation =
  | { kind: 'auth'; label: string }
  | { kind: 'query-value'; index: number; value: UrlValue }
  | { kind: 'query-number'; index: number; value: UrlValue }
  | { kind: 'query-repeat'; index: number; value: UrlValue | null }
  | { kind: 'query-drop'; index: number }
  | { kind: 'query-unknown'; name: string; value: UrlValue }
  | { kind: 'path-value'; index: number; value: UrlValue }
  | { kind: 'suffix'; suffix: string }
  | { kind: 'base'; base: string }
  | { kind: 'body-wrong-type'; index: number; value: unknown }
  | { kind: 'body-drop'; index: number }
  | { kind: 'body-extra'; name: string; value: unknown }
  | { kind: 'body-string'; index: number; value: string; label: string }
  | { kind: 'body-duplicate-key'; value: unknown }
  | { kind: 'body-text'; text: string; label: string; parsed?: unknown }
  | { kind: 'body-too-large' }
  | { kind: 'content-type'; value: string | null }
  | { kind: 'idempotency'; value: string | null; label: string }
  | { kind: 'header'; name: string; value: string };

export interface Plan {
  mode: 'valid' | 'mutated';
  auth: number;
  picks: number[];
  real: boolean[];
  include: boolean[];
  values: Record<string, unknown>;
  body: unknown;
  specs: Record<string, unknown>;
  magic: string | null;
  bigPrice: boolean;
  mutations: Mutation[];
  requestId: string | null;
}

export interface Built {
  raw: RawRequest;
  labels: string[];
  mustRefuse: string | null;
  /** The target no longer names the operation's path: its documented responses need not apply. */
  pathMutated: boolean;
  /** The operation the routed path names (this one, another one, or none). */
  routedOp: Operation | null;
  anonymousImpact: boolean;
  keyedFunding: boolean;
  /** The X-Request-Id we sent, when it is one the server must keep. */
  sentRequestId: string | null;
  /**
   * The request line and headers exceed node's 16 KiB header limit (lib/http/server.ts): node's parser
   * answers a bare 431 before the server sees the request (tests/reliability/http-abuse.test.ts).
   */
  overHeaderLimit: boolean;
}

const SANDBOX_MAGIC = [
  'sandbox:stay_pending',
  'sandbox:stay_dispatched',
  'sandbox:fail',
  'sandbox:low_confidence',
  'sandbox:dispute_refund',
  'sandbox:expire',
];
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

const weighted = (percent: number) => fc.integer({ min: 0, max: 99 }).map((n) => n < percent);

/** Top-level and nested string fields of a body schema, as paths. */
function bodyFieldPaths(schema: Schema, prefix: string[] = []): string[][] {
  const props: Record<string, Schema> = schema?.properties ?? {};
  return Object.entries(props).flatMap(([name, s]) => [
    [...prefix, name],
    ...(s?.type === 'object' ? bodyFieldPaths(s, [...prefix, name]) : []),
  ]);
}

function mutationArbitrary(op: Operation): fc.Arbitrary<Mutation> {
  const query = op.params.filter((p) => p.in === 'query');
  const pathParams = op.params.filter((p) => p.in === 'path');
  const choices: Array<fc.WeightedArbitrary<Mutation>> = [
    {
      weight: 2,
      arbitrary: fc.constantFrom(...BAD_AUTH[op.service]!).map((label) => ({ kind: 'auth' as const, label })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'foo',
            'callback',
            '_',
            'Q',
            'page[size]',
            '__proto__',
            'constructor',
            'format',
            'per_page ',
            'SCENARIO',
            'limit%00',
          ),
          hostileUrlValue,
        )
        .map(([name, value]) => ({ kind: 'query-unknown' as const, name, value })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '/',
          '//',
          '/..',
          '/%2e%2e',
          '/../openapi.json',
          '/%00',
          '.json',
          '%00',
          '/%2F',
          ';x=1',
          '/%2e',
          '?',
        )
        .map((suffix) => ({ kind: 'suffix' as const, suffix })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('v2', 'upper', 'dot', 'double-slash', 'dot-dot', 'encoded-slash', 'no-version')
        .map((base) => ({ kind: 'base' as const, base })),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc
          .constantFrom('short', 'has space', 'x'.repeat(200), 'ünïcödé-id', '../../etc')
          .map((value) => ({ kind: 'header' as const, name: 'x-request-id', value })),
        fc
          .constantFrom('*', '"nope"', 'W/"x"', '"' + 'a'.repeat(4000) + '"', '')
          .map((value) => ({ kind: 'header' as const, name: 'if-none-match', value })),
        fc
          .constantFrom('text/html', '*/*', 'application/xml', '', 'application/json;q=0')
          .map((value) => ({ kind: 'header' as const, name: 'accept', value })),
        fc
          .constantFrom('evil.example', 'http://evil.example', 'null')
          .map((value) => ({ kind: 'header' as const, name: 'origin', value })),
        fc
          .constantFrom('gzip', 'br, compress', 'x'.repeat(100))
          .map((value) => ({ kind: 'header' as const, name: 'accept-encoding', value })),
      ),
    },
  ];
  if (query.length) {
    const index = fc.nat({ max: query.length - 1 });
    choices.push(
      {
        weight: 4,
        arbitrary: fc
          .tuple(index, hostileUrlValue)
          .map(([i, value]) => ({ kind: 'query-value' as const, index: i, value })),
      },
      {
        weight: 2,
        arbitrary: index.chain((i) =>
          badNumbers(query[i]!.schema).map((value) => ({ kind: 'query-number' as const, index: i, value })),
        ),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(index, fc.option(hostileUrlValue))
          .map(([i, value]) => ({ kind: 'query-repeat' as const, index: i, value })),
      },
      { weight: 1, arbitrary: index.map((i) => ({ kind: 'query-drop' as const, index: i })) },
    );
  }
  if (pathParams.length) {
    choices.push({
      weight: 5,
      arbitrary: fc
        .tuple(fc.nat({ max: pathParams.length - 1 }), hostilePathSegment)
        .map(([i, value]) => ({ kind: 'path-value' as const, index: i, value })),
    });
  }
  if (op.body) {
    const fields = bodyFieldPaths(op.body);
    const fieldIndex = fc.nat({ max: Math.max(0, fields.length - 1) });
    choices.push(
      {
        weight: 3,
        arbitrary: fc
          .tuple(fieldIndex, wrongTypeValue)
          .map(([index, value]) => ({ kind: 'body-wrong-type' as const, index, value })),
      },
      { weight: 2, arbitrary: fieldIndex.map((index) => ({ kind: 'body-drop' as const, index })) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'capability ', 'Capability', ''), wrongTypeValue)
          .map(([name, value]) => ({ kind: 'body-extra' as const, name, value })),
      },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fieldIndex, nastyStrings)
          .map(([index, s]) => ({ kind: 'body-string' as const, index, value: s.raw, label: s.label })),
      },
      { weight: 1, arbitrary: wrongTypeValue.map((value) => ({ kind: 'body-duplicate-key' as const, value })) },
      { weight: 3, arbitrary: nonObjectBodies.map((b) => ({ kind: 'body-text' as const, ...b })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'body-too-large' as const }) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            null,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/jsonx',
            'application/json; charset=utf-16',
            'APPLICATION/JSON',
          )
          .map((value) => ({ kind: 'content-type' as const, value })),
      },
    );
  }
  if (op.params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) {
    choices.push({
      weight: 3,
      arbitrary: fc
        .constantFrom<[string | null, string]>(
          [null, 'missing'],
          ['', 'empty'],
          ['not-a-uuid', 'not a UUID'],
          ['x'.repeat(5000), 'huge'],
          ['00000000-0000-0000-0000-00000000000g', 'bad hex'],
          ['{uuid}', 'braced'],
          ['"{uuid}"', 'quoted (valid)'],
          ['{UUID}', 'upper case (valid)'],
          ['{uuid}\u00e9', 'Latin-1 tail'],
          ['{uuid}, {uuid}', 'two values'],
        )
        .map(([value, label]) => ({ kind: 'idempotency' as const, value, label })),
    });
  }
  return fc.oneof(...choices);
}

/** The body arbitrary of an operation (MCP: JSON-RPC messages built from the tools' input schemas). */
function bodyArbitrary(op: Operation, catalogue: Catalogue): fc.Arbitrary<unknown> {
  if (!op.body) return fc.constant(null);
  if (op.service === 'human' && op.path === '/mcp') {
    const id = fc.oneof(fc.nat(), fc.uuid());
    const call = fc.oneof(
      ...catalogue.tools.map((t) => valueArbitrary(t.inputSchema).map((args) => ({ name: t.name, arguments: args }))),
    );
    return fc.oneof(
      {
        weight: 6,
        arbitrary: fc.tuple(id, call).map(([i, params]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params })),
      },
      { weight: 1, arbitrary: id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list', params: {} })) },
      {
        weight: 1,
        arbitrary: id.map((i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
        })),
      },
      { weight: 1, arbitrary: id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })) },
      { weight: 1, arbitrary: fc.constant({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(id, fc.constantFrom('tools/cal', 'resources/list', 'prompts/get', '', 'rpc.discover'))
          .map(([i, method]) => ({ jsonrpc: '2.0', id: i, method, params: {} })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(id, call).map(([i, params]) => [{ jsonrpc: '2.0', id: i, method: 'tools/call', params }]),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('1.0', 2, null), id)
          .map(([jsonrpc, i]) => ({ jsonrpc, id: i, method: 'tools/list' })),
      },
    );
  }
  return valueArbitrary(op.body, { doc: op.doc });
}

export function planArbitrary(op: Operation, catalogue: Catalogue): fc.Arbitrary<Plan> {
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of op.params) values[p.name] = valueArbitrary(p.schema);
  const specs: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [id, schema] of Object.entries(catalogue.specSchemas)) specs[id] = valueArbitrary(schema);
  return fc.record({
    mode: fc.constantFrom<'valid' | 'mutated'>('valid', 'valid', 'mutated', 'mutated', 'mutated'),
    auth: fc.nat(),
    picks: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    real: fc.array(weighted(85), { minLength: 6, maxLength: 6 }),
    include: fc.array(fc.boolean(), { minLength: op.params.length, maxLength: op.params.length }),
    values: fc.record(values),
    body: bodyArbitrary(op, catalogue),
    specs: fc.record(specs),
    magic: fc.option(fc.constantFrom(...SANDBOX_MAGIC), { freq: 2 }),
    bigPrice: weighted(80),
    mutations: fc.array(mutationArbitrary(op), { minLength: 1, maxLength: 3 }),
    requestId: fc.option(fc.stringMatching(/^[A-Za-z0-9._:-]{8,40}$/), { freq: 4 }),
  });
}

/** Builds the request a plan describes, against the server's state now. */
export function materialize(
  op: Operation,
  plan: Plan,
  world: World,
  catalogue: Catalogue,
  siblings: Operation[],
): Built {
  const labels: string[] = [plan.mode];
  const refusals: string[] = [];
  const headers: Record<string, string | string[]> = {};
  const extraQuery: Array<[string, string]> = [];
  const mutations = plan.mode === 'mutated' ? plan.mutations : [];

  // 1. The credential.
  const authMutation = mutations.find((m): m is Extract<Mutation, { kind: 'auth' }> => m.kind === 'auth');
  const authLabel = authMutation?.label ?? pickFrom(validAuthLabels(op), plan.auth)!;
  labels.push(`auth:${authLabel}`);
  const humanCaller: HumanKey =
    authLabel === 'live'
      ? world.human.live
      : authLabel === 'broke'
        ? world.human.broke
        : authLabel === 'read-only'
          ? world.human.readOnly
          : world.human.test;
  let authRefusals: string[] = [];
  applyAuth(op, authLabel, world, headers, extraQuery, authRefusals);

  // 2. Valid values for every parameter, real identifiers where the server has them.
  const query: Array<[string, string]> = [];
  const path: Record<string, string> = {};
  let idempotency: string | null = randomUUID();
  op.params.forEach((p, i) => {
    const wanted = p.required || plan.include[i];
    if (!wanted) return;
    const real = realValue(op, p, plan, i, world, humanCaller);
    if (real === OMIT && !p.required) return;
    const text = String(real ?? plan.values[p.name]);
    if (p.in === 'path') path[p.name] = encodeLoose(text);
    else if (p.in === 'query') query.push([p.name, encodeLoose(text)]);
  });
  if (op.params.some((p) => p.name === 'evidence') && plan.real[0]) {
    const pair = pickFrom(world.evidence(humanCaller), plan.picks[0]!);
    if (pair) [path.ref, path.evidence] = pair;
  }

  // 3. The body.
  let bodyValue: unknown = op.body ? fixBody(op, plan, world, humanCaller) : undefined;
  let bodyText: string | undefined;
  let contentType: string | null = op.body ? 'application/json' : null;

  // 4. Mutations.
  const queryParams = op.params.filter((p) => p.in === 'query');
  const pathParams = op.params.filter((p) => p.in === 'path');
  const fields = op.body ? bodyFieldPaths(op.body) : [];
  let base = op.base;
  let suffix = '';
  let pathMutated = false;
  let tooLarge = false;
  const leadingMembers: Array<[string, unknown]> = [];
  let textMutation: Extract<Mutation, { kind: 'body-text' }> | null = null;
  for (const m of mutations) {
    switch (m.kind) {
      case 'auth':
        break;
      case 'query-value':
      case 'query-number': {
        const name = queryParams[m.index]!.name;
        const at = query.findIndex(([n]) => n === name);
        if (at >= 0) query[at] = [name, m.value.encoded];
        else query.push([name, m.value.encoded]);
        labels.push(`${m.kind}:${name}=${m.value.label}`);
        break;
      }
      case 'query-repeat': {
        const name = queryParams[m.index]!.name;
        const existing = query.find(([n]) => n === name)?.[1] ?? encodeLoose(String(plan.values[name]));
        if (!query.some(([n]) => n === name)) query.push([name, existing]);
        query.push([name, m.value?.encoded ?? existing]);
        labels.push(`query-repeat:${name}`);
        break;
      }
      case 'query-drop': {
        const name = queryParams[m.index]!.name;
        for (let i = query.length - 1; i >= 0; i--) if (query[i]![0] === name) query.splice(i, 1);
        labels.push(`query-drop:${name}`);
        break;
      }
      case 'query-unknown':
        query.push([m.name.includes('%') ? m.name : encodeLoose(m.name), m.value.encoded]);
        labels.push(`query-unknown:${m.name}=${m.value.label}`);
        break;
      case 'path-value': {
        const name = pathParams[m.index]!.name;
        path[name] = m.value.encoded;
        labels.push(`path:${name}=${m.value.label}`);
        break;
      }
      case 'suffix':
        suffix = m.suffix;
        labels.push(`suffix:${m.suffix}`);
        break;
      case 'base':
        base = {
          v2: op.base.replace('/v1', '/v2'),
          upper: op.base.toUpperCase(),
          dot: `${op.base}/.`,
          'double-slash': `/${op.base}`,
          'dot-dot': `${op.base}/..${op.base}`,
          'encoded-slash': op.base.replace(/^\/(\w+)\//, '/$1%2F'),
          'no-version': `/${op.service}`,
        }[m.base]!;
        labels.push(`base:${m.base}`);
        break;
      case 'body-wrong-type':
      case 'body-drop':
      case 'body-string': {
        const field = fields[m.index];
        if (!field || !isObject(bodyValue)) break;
        bodyValue = structuredClone(bodyValue);
        const parent = field.slice(0, -1).reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), bodyValue);
        if (!isObject(parent)) break;
        const leaf = field[field.length - 1]!;
        if (m.kind === 'body-drop') delete parent[leaf];
        else parent[leaf] = m.kind === 'body-string' ? m.value : m.value;
        labels.push(`${m.kind}:${field.join('.')}${m.kind === 'body-string' ? `=${m.label}` : ''}`);
        break;
      }
      // Members written into the JSON text ahead of the body's own: a '__proto__' member must be an own
      // property of the text (assignment would not make one), and a duplicate key is only text.
      case 'body-extra':
        if (!isObject(bodyValue)) break;
        leadingMembers.push([m.name, m.value]);
        labels.push(`body-extra:${m.name}`);
        if (op.body?.additionalProperties === false && !(op.body.properties ?? {})[m.name])
          refusals.push(`body member '${m.name}' is not in the contract`);
        break;
      case 'body-duplicate-key':
        if (!isObject(bodyValue) || !Object.keys(bodyValue).length) break;
        leadingMembers.push([Object.keys(bodyValue)[0]!, m.value]);
        labels.push(`body-duplicate-key:${Object.keys(bodyValue)[0]}`);
        break;
      case 'body-text':
        bodyText = m.text;
        textMutation = m; // the last one is the body sent
        labels.push(`body-text:${m.label}`);
        break;
      case 'body-too-large':
        tooLarge = true;
        labels.push('body-too-large');
        refusals.push('body over the 1 MiB limit');
        break;
      case 'content-type':
        contentType = m.value;
        labels.push(`content-type:${m.value}`);
        break;
      case 'idempotency': {
        const uuid = randomUUID();
        idempotency =
          m.value === null ? null : m.value.replaceAll('{uuid}', uuid).replaceAll('{UUID}', uuid.toUpperCase());
        labels.push(`idempotency:${m.label}`);
        break;
      }
      case 'header':
        headers[m.name] = m.value;
        labels.push(`header:${m.name}`);
        break;
    }
  }

  // 5. The contract's verdict on the path as routed (`.` and `..` segments resolved as a URL resolves
  // them, trailing slashes allowed): it may name this operation, another one (`/runs/..` is the
  // index), or none; then on the parameters as sent.
  const filledPath = op.path.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? '');
  const routed = routedPath(`${base}${filledPath}${suffix}`);
  const routedOp = operationPattern(op).test(routed)
    ? op
    : (siblings.find((o) => o !== op && o.method === op.method && operationPattern(o).test(routed)) ?? null);
  if (routedOp === null) {
    pathMutated = true;
    // Under the service's base, a path that names no operation is refused (404/405). Resolved out of
    // it (`/funding/v1/calls/../../..` is `/`), it names another resource of the site: no verdict.
    if (routed.startsWith(`${op.base}/`) || routed === op.base) refusals.push('the path names no operation');
    authRefusals = [];
  } else if (routedOp !== op) {
    labels.push(`routed-as:${routedOp.id}`);
    // The credential is judged by the operation that serves the request (it may need no key).
    authRefusals = [];
    applyAuth(routedOp, authLabel, world, {}, [], authRefusals);
  } else {
    for (const p of pathParams) {
      const verdict = paramVerdict(p, path[p.name] === undefined ? null : decodePath(path[p.name]!));
      if (verdict === 'invalid' || /%2F|\//i.test(path[p.name] ?? '') || path[p.name] === '')
        refusals.push(`path parameter '${p.name}' is invalid`);
    }
  }
  if (routedOp) {
    const routedQuery = routedOp.params.filter((p) => p.in === 'query');
    const seen = new Map<string, number>();
    for (const [name] of [...query, ...extraQuery]) seen.set(name, (seen.get(name) ?? 0) + 1);
    for (const [name, count] of seen) {
      const param = routedQuery.find((p) => p.name === name);
      if (!param) refusals.push(`unknown query parameter '${name}'`);
      else if (count > 1) refusals.push(`query parameter '${name}' repeated`);
      else if (paramVerdict(param, decodeQuery(query.find(([n]) => n === name)![1])) === 'invalid')
        refusals.push(`query parameter '${name}' is invalid`);
    }
    for (const p of routedQuery)
      if (p.required && !seen.has(p.name)) refusals.push(`required query parameter '${p.name}' is missing`);
  }
  const idemParam = op.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  if (idemParam) {
    if (idempotency === null) refusals.push('Idempotency-Key is missing');
    else {
      headers['idempotency-key'] = idempotency;
      if (!new RegExp(idemParam.schema.pattern).test(idempotency)) refusals.push('Idempotency-Key is malformed');
    }
  }

  refusals.push(...authRefusals);
  if (textMutation && !isMcp(op) && routedOp === op) {
    if ('parsed' in textMutation) {
      if (!jsonVerdict(op.body, textMutation.parsed, op.doc))
        refusals.push(`body (${textMutation.label}) fails the contract schema`);
    } else if (textMutation.text !== '' || op.bodyRequired) refusals.push(`body is ${textMutation.label}`);
  }

  // 6. The body as sent, and the contract's verdict on it.
  let body: Buffer | undefined;
  if (op.body) {
    if (tooLarge) body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(1_100_000) }));
    else if (bodyText === undefined && leadingMembers.length && isObject(bodyValue)) {
      const own = JSON.stringify(bodyValue).slice(1);
      const lead = leadingMembers.map(([k, val]) => `${JSON.stringify(k)}:${JSON.stringify(val ?? null)}`).join(',');
      body = Buffer.from(`{${lead}${own === '}' ? '' : ','}${own}`);
    } else body = Buffer.from(bodyText ?? JSON.stringify(bodyValue));
    if (contentType !== null) headers['content-type'] = contentType;
    // No body at all needs no media type where the body is optional; anything else is JSON or 415.
    const absent =
      body.length === 0 && !op.bodyRequired && (contentType === null || contentType === 'application/json');
    if (
      !isMcp(op) &&
      !absent &&
      (contentType === null || !/^application\/json(\s*;\s*charset=utf-8)?$/i.test(contentType))
    ) {
      refusals.push(`content-type '${contentType}' is not application/json`);
    }
    // Leading members change no verdict: a duplicate loses to the body's own member (JSON.parse keeps
    // the last), and an extra one is refused above when the schema closes the object.
    if (!isMcp(op) && routedOp === op && bodyText === undefined && !tooLarge) {
      if (!jsonVerdict(op.body, bodyValue, op.doc)) refusals.push('the body fails the contract schema');
      const spec =
        isObject(bodyValue) && typeof bodyValue.capability === 'string'
          ? catalogue.specSchemas[bodyValue.capability]
          : undefined;
      if (spec && isObject(bodyValue) && 'spec' in bodyValue && !jsonVerdict(spec, bodyValue.spec, op.doc))
        refusals.push("spec fails the capability's spec_schema");
    }
  }
  if (isMcp(op)) headers.accept ??= 'application/json, text/event-stream';

  const sentRequestId = typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : plan.requestId;
  if (plan.requestId && headers['x-request-id'] === undefined) headers['x-request-id'] = plan.requestId;

  const qs = [...query, ...extraQuery].map(([n, v]) => `${n}=${v}`).join('&');
  const target = `${base}${filledPath}${suffix}${qs ? (suffix === '?' ? '' : '?') + qs : ''}`;
  const headerBytes =
    target.length + Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
  return {
    overHeaderLimit: headerBytes > 16_000,
    raw: { method: op.method, target, headers, ...(body !== undefined ? { body } : {}) },
    labels,
    mustRefuse: refusals.length ? refusals.join('; ') : null,
    pathMutated,
    routedOp,
    anonymousImpact: op.service === 'impact' && !['key', 'x-api-key'].includes(authLabel),
    keyedFunding: op.service === 'funding' && ['basic', 'pro'].includes(authLabel),
    sentRequestId: sentRequestId && REQUEST_ID.test(sentRequestId) ? sentRequestId : null,
  };
}

/** The operation's path as a pattern on routed paths: a parameter is one non-empty segment. */
function operationPattern(op: Operation): RegExp {
  const source = (op.base + op.path)
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/*$`);
}
