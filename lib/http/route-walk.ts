/**
 * How a request reaches an itty-router (issue 37). Routes are written and registered with itty-router
 * as ever (`router.get(path, handler)`, `before`, `catch`, `finally`), and matched by the regular
 * expressions itty-router compiles from their paths (`router.routes`); this walk runs them with
 * itty-router's own rules (the first handler to return something other than null/undefined answers;
 * `catch` for what a stage throws; `finally` over the answer) and sets `query`, `params` and `route`
 * as it does. It differs from itty-router's `fetch` in what it costs, never in what it answers
 * (tests/lib/http/route-walk.test.ts runs both on the same requests):
 *
 *  - the routes are grouped by the path segment that tells them apart (the first after their shared
 *    prefix), so a request tests the regular expressions of its own group, not the whole table;
 *  - the URL is not parsed again when the path is one a URL parser leaves as it is (the query is read
 *    with URLSearchParams, as itty-router reads it; any other target is parsed with `new URL`);
 *  - a stage that answers synchronously is not awaited: the walk returns a promise only from the first
 *    stage that returns one (itty-router's `fetch` is async and awaits every stage: 3 to 5 promises and
 *    a URL per request, the largest part of its cost in BENCHMARKS.md "HTTP adapter").
 */
import type { ApiRequest } from './types.ts';

type Stage = (req: ApiRequest) => unknown;
type Entry = readonly [method: string, match: RegExp, handlers: Stage[], path?: string];

/** The parts of an itty-router the walk reads (a Router's stages are properties of the router). */
export interface WalkedRouter {
  routes: ReadonlyArray<readonly [string, RegExp, ReadonlyArray<(req: never) => unknown>, string?]>;
  before?: ReadonlyArray<(req: never) => unknown>;
  catch?: (err: never, req: never) => unknown;
  finally?: ReadonlyArray<(res: never, req: never) => unknown>;
}

/** The walk's answer: what the router's stages answered (the caller decides what undefined means). */
export type Walk = (req: ApiRequest) => unknown;

// A path the URL parser leaves as it is: no dot segment (nor an encoded one), nothing it would encode.
export const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
export const DOT_SEGMENT = /\/\.|%2e/i;
// A query URLSearchParams reads as the URL parser's searchParams do: printable ASCII, no fragment.
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;
// A pattern's segment that matches only itself (itty-router escapes only '.'; ':' and '*' are not literal).
const LITERAL_SEGMENT = /^[\w.~%-]+$/;
/** How deep the walk looks for the segment that tells routes apart (the services' bases are two deep). */
const MAX_DEPTH = 4;

interface Table {
  /** The table as it was grouped: routes registered later regroup it. */
  size: number;
  depth: number;
  /** Per method: the routes that may match a path by its key, and those for any other key. */
  methods: Map<string, { byKey: Map<string, Entry[]>; rest: Entry[] }>;
  /** For a method no route names: the ALL routes. */
  other: { byKey: Map<string, Entry[]>; rest: Entry[] };
}

/** The walk of a router: call it instead of `router.fetch(req)`; its answer is the same. */
export function routeWalk(router: WalkedRouter): Walk {
  const routes = router.routes as unknown as Entry[];
  // Only the router's own properties: any other name reads as a route registrar (itty-router's Proxy).
  const own = <T>(name: 'before' | 'catch' | 'finally'): T | undefined =>
    Object.hasOwn(router, name) ? (router[name] as T) : undefined;
  const before = own<Stage[]>('before') ?? [];
  const after = own<Array<(res: unknown, req: ApiRequest) => unknown>>('finally') ?? [];
  const onError = own<(err: unknown, req: ApiRequest) => unknown>('catch');
  let table: Table | undefined;

  /** The answer, through `finally`; an error there goes to `catch` (itty-router's second try). */
  const finish = (req: ApiRequest, response: unknown, from = 0): unknown => {
    try {
      for (let i = from; i < after.length; i++) {
        const out = after[i]!(response, req);
        if (isThenable(out))
          return Promise.resolve(out).then(
            (v) => finish(req, v ?? response, i + 1),
            (err: unknown) => failFinally(req, err),
          );
        response = out ?? response;
      }
      return response;
    } catch (err) {
      return failFinally(req, err);
    }
  };
  const failFinally = (req: ApiRequest, err: unknown): unknown => {
    if (!onError) return Promise.reject(err as Error);
    try {
      return onError(err, req);
    } catch (thrown) {
      return Promise.reject(thrown as Error);
    }
  };
  /** An error of `before` or a route: `catch`'s answer goes through `finally`. */
  const fail = (req: ApiRequest, err: unknown): unknown => {
    if (!onError) return Promise.reject(err as Error);
    let caught: unknown;
    try {
      caught = onError(err, req);
    } catch (thrown) {
      return Promise.reject(thrown as Error);
    }
    return isThenable(caught)
      ? Promise.resolve(caught).then(
          (v) => finish(req, v),
          (e: unknown) => Promise.reject(e as Error),
        )
      : finish(req, caught);
  };

  /**
   * The stages from `before[b]`, then the candidate routes from `candidates[r]` (its handlers from
   * `h`): synchronous until a stage returns a promise, then continued when it settles.
   */
  const walk = (req: ApiRequest, pathname: string, candidates: Entry[], b: number, r: number, h: number): unknown => {
    try {
      for (; b < before.length; b++) {
        const out = before[b]!(req);
        if (isThenable(out))
          return settle(out, req, (v) => (v != null ? finish(req, v) : walk(req, pathname, candidates, b + 1, 0, 0)));
        if (out != null) return finish(req, out);
      }
      for (; r < candidates.length; r++, h = 0) {
        const [method, match, handlers, path] = candidates[r]!;
        if (h === 0) {
          if (method !== req.method && method !== 'ALL') continue;
          const found = match.exec(pathname);
          if (found === null) continue;
          req.params = (found.groups as Record<string, string> | undefined) ?? {};
          req.route = path;
        }
        for (; h < handlers.length; h++) {
          const out = handlers[h]!(req);
          if (isThenable(out)) {
            const [at, next] = [r, h + 1];
            return settle(out, req, (v) =>
              v != null ? finish(req, v) : walk(req, pathname, candidates, before.length, at, next),
            );
          }
          if (out != null) return finish(req, out);
        }
      }
      return finish(req, undefined);
    } catch (err) {
      return fail(req, err);
    }
  };
  const settle = (pending: PromiseLike<unknown>, req: ApiRequest, then: (v: unknown) => unknown) =>
    Promise.resolve(pending).then(then, (err: unknown) => fail(req, err));

  return (req) => {
    if (table === undefined || table.size !== routes.length) table = group(routes);
    const pathname = locate(req);
    const forMethod = table.methods.get(req.method) ?? table.other;
    const candidates = forMethod.byKey.get(keyOf(pathname, table.depth)) ?? forMethod.rest;
    return walk(req, pathname, candidates, 0, 0, 0);
  };
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';

/**
 * Sets `req.query` as itty-router does (a prototype-less object; a repeated name becomes an array, an
 * empty first value is replaced) and returns the path the routes are matched on: the URL parser's
 * pathname, read from the request target without the parser when the parser would not change it.
 */
function locate(req: ApiRequest): string {
  const url = req.url;
  const query: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, never>;
  req.query = query;
  let pathname: string;
  let search: string | undefined;
  const queryAt = url.indexOf('?');
  const path = url.startsWith(ORIGIN) ? url.slice(ORIGIN.length - 1, queryAt === -1 ? undefined : queryAt) : null;
  if (
    path !== null &&
    path.charCodeAt(0) === 47 &&
    PLAIN_PATH.test(path) &&
    !DOT_SEGMENT.test(path) &&
    (queryAt === -1 || PLAIN_QUERY.test(url.slice(queryAt + 1)))
  ) {
    pathname = path;
    search = queryAt === -1 ? undefined : url.slice(queryAt + 1);
  } else {
    const parsed = new URL(url);
    pathname = parsed.pathname;
    search = parsed.search.slice(1);
  }
  if (search)
    for (const [name, value] of new URLSearchParams(search)) {
      const had = query[name];
      query[name] = had ? ([] as string[]).concat(had, value) : value;
    }
  return pathname;
}
const ORIGIN = 'http://localhost/';

/** The first `depth + 1` segments of a path, padded with empty ones (`/a` at depth 1 is `a/`). */
function keyOf(pathname: string, depth: number): string {
  let at = 1;
  for (let i = 0; i <= depth; i++) {
    const next = pathname.indexOf('/', at);
    if (next === -1) {
      // The path ends within the key: the missing segments are empty.
      let key = pathname.slice(1);
      for (let j = i; j < depth; j++) key += '/';
      return key;
    }
    at = next + 1;
  }
  return pathname.slice(1, at - 1);
}

/**
 * A route's key at `depth` (the segments a path must start with for it to match), or null when it may
 * match paths of any key (a parameter or wildcard within the key's segments). A pattern of literal
 * segments shorter than the key matches its path and trailing slashes only: its key is padded.
 */
function routeKey(path: string | undefined, depth: number): string | null {
  if (path === undefined || (path !== '' && path.charCodeAt(0) !== 47)) return null;
  const segments = path === '' ? [] : path.slice(1).split('/');
  const key: string[] = [];
  for (let i = 0; i <= depth; i++) {
    const segment = segments[i] ?? ''; // past a pattern's end: an empty segment (a trailing slash) or none
    if (i < segments.length && !LITERAL_SEGMENT.test(segment)) return null;
    key.push(segment);
  }
  return key.join('/');
}

/** The routes by method and key, at the depth that keeps the longest list shortest. */
function group(routes: readonly Entry[]): Table {
  let best: Table | undefined;
  let bestLongest = Infinity;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const keys = routes.map(([, , , path]) => routeKey(path, depth));
    const methods = new Map<string, { byKey: Map<string, Entry[]>; rest: Entry[] }>();
    const build = (method: string | null) => {
      const byKey = new Map<string, Entry[]>();
      const rest: Entry[] = [];
      const of = (i: number) => routes[i]![0] === 'ALL' || routes[i]![0] === method;
      for (const key of new Set(keys)) if (key !== null) byKey.set(key, []);
      routes.forEach((entry, i) => {
        if (!of(i)) return;
        const key = keys[i]!;
        if (key === null) {
          rest.push(entry);
          for (const list of byKey.values()) list.push(entry);
        } else byKey.get(key)!.push(entry);
      });
      return { byKey, rest };
    };
    for (const method of new Set(routes.map(([m]) => m))) if (method !== 'ALL') methods.set(method, build(method));
    const table: Table = { size: routes.length, depth, methods, other: build(null) };
    let longest = 0;
    for (const m of [...methods.values(), table.other])
      for (const list of [...m.byKey.values(), m.rest]) longest = Math.max(longest, list.length);
    if (longest < bestLongest) [best, bestLongest] = [table, longest];
  }
  return best!;
}
