/**
 * Builds one service's itty-router from its operations, with the stages every service shares:
 * CORS (preflights answered before any counting), the service's own access stage (keys, quotas,
 * accounting headers), the operations, then 405 with Allow for a known path under another method,
 * 404 for anything else, and errors rendered in the service's documented shape. A request refused
 * because a part it needs is down (lib/http/unavailable.ts) or because the node is read-only is a 503
 * that is marked on the request and not counted against the client.
 */
import { Router } from 'itty-router';
import type { Logger } from 'pino';
import { contractOperation, type ApiSpec, type Json } from '../openapi.ts';
import { answerMethodsUnder } from './any-method.ts';
import { corsHeaders, preflight } from './cors.ts';
import { HttpError } from './errors.ts';
import { withInputs, type BodyParsing, type Operation } from './operation.ts';
import type { ApiRequest, Refusal, Reply } from './types.ts';
import { refusalError, refusalOf } from './unavailable.ts';
import { READ_ONLY_REFUSAL, readOnlyRefusal } from './read-only.ts';

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'];

export interface ServiceRouterOptions {
  name: string;
  base: string;
  /** Each handler receives its inputs parsed with the schemas its spec declares (lib/http/operation.ts). */
  operations: Operation[];
  /** How the service reads and validates a declared JSON body (its media-type rules and error shape). */
  body?: BodyParsing;
  /**
   * Runs after CORS, before routing; throws HttpError to refuse. `refund` gives back what it counted
   * for a request refused unserved (lib/http/access.ts).
   */
  access: ((req: ApiRequest) => void | Promise<void>) & { refund?: (req: ApiRequest) => void };
  /** Turns an HttpError into the service's error body. */
  renderError: (err: HttpError, req: ApiRequest) => Reply;
  /** The service's table from its rules' DomainErrors to HttpErrors; returns anything else as it is. */
  domainErrors?: (err: unknown) => unknown;
  /**
   * Read-only service: any method other than GET, HEAD and OPTIONS is 405 with Allow anywhere under
   * the base, on a path that does not exist too (impact rule 1).
   */
  readOnly?: boolean;
  /** The 503 a database that does not answer becomes (impact names its own code). */
  unavailable?: () => HttpError;
  /** Run `access` on CORS preflights too, so they carry the service's accounting headers (funding). */
  accessOnPreflight?: boolean;
  log: Logger;
}

export function serviceRouter(options: ServiceRouterOptions) {
  const { name, base, operations, access, renderError, log } = options;
  /** Marks a request refused unserved, and gives back what the access stage counted for it. */
  const refuse = (req: ApiRequest, refusal: Refusal) => {
    req.refused = refusal;
    access.refund?.(req);
  };
  /** A preflight is counted and shows it in its headers, and is answered whatever the count says. */
  const countPreflight = (req: ApiRequest): void => {
    try {
      void access(req)?.catch(() => {});
    } catch {
      // refused (a 429): the preflight is still answered
    }
  };
  if (options.readOnly) answerMethodsUnder(base); // CONNECT and unknown methods reach the router too
  /** The methods a path answers to, read from the router's own route table (called once it is built). */
  const allowedAt = (path: string) => {
    const methods = new Set<string>(
      router.routes.filter(([method, match]) => method !== 'ALL' && match.test(path)).map(([method]) => method),
    );
    if (methods.has('GET')) methods.add('HEAD');
    if (methods.size) methods.add('OPTIONS');
    return [...methods];
  };

  const router = Router<ApiRequest, [], Reply>({
    base,
    before: [
      // Synchronous when the access stage is (the counters in this process): no promise per request.
      (req): Reply | undefined | Promise<void> => {
        req.service = name;
        Object.assign(req.replyHeaders, corsHeaders);
        if (req.originalMethod === 'OPTIONS') {
          const allow = allowedAt(req.path);
          if (allow.length && options.accessOnPreflight) countPreflight(req);
          return allow.length ? preflight(allow.join(', ')) : undefined;
        }
        const counted = access(req);
        return counted instanceof Promise ? counted : undefined;
      },
    ],
    catch: (thrown: unknown, req: ApiRequest) => {
      const err = options.domainErrors ? options.domainErrors(thrown) : thrown;
      if (err instanceof HttpError) return renderError(err, req);
      // A part the request needs cannot serve it: refused unserved and uncounted. No log line of its
      // own: the access log carries the cause, the dependency's state the outage (lib/http/unavailable.ts).
      const refusal = refusalOf(err);
      if (refusal) {
        refuse(req, refusal);
        return renderError(refusalError(refusal, options.unavailable), req);
      }
      log.error({ reqId: req.id, err }, 'unhandled fault');
      return renderError(
        new HttpError(500, 'internal_error', `Internal error. Quote request id ${req.id} when reporting it.`),
        req,
      );
    },
  });
  for (const op of operations) {
    const handle = withInputs(op, options.body);
    if (op.spec.method === 'GET') router.get(op.spec.path, handle);
    // A write on a READ_ONLY node: refused in the service's shape before anything runs.
    else
      router[op.spec.method === 'DELETE' ? 'delete' : 'post'](op.spec.path, (req: ApiRequest) => {
        if (!req.readOnly) return handle(req);
        refuse(req, READ_ONLY_REFUSAL);
        return Promise.reject(readOnlyRefusal(req.readOnly));
      });
  }
  router.all('*', (req: ApiRequest) => {
    const allow = allowedAt(req.path);
    if (options.readOnly && !allow.length && !READ_METHODS.includes(req.originalMethod)) allow.push(...READ_METHODS);
    if (allow.length) {
      throw new HttpError(
        405,
        'method_not_allowed',
        `${req.originalMethod} is not allowed here. Allowed: ${allow.join(', ')}.`,
        { allow: allow.join(', ') },
      );
    }
    throw new HttpError(404, 'not_found', `No such path: ${req.path}. The contract is at ${base}/openapi.json.`);
  });
  return router;
}

/**
 * A service from one list of operations: the router, and the OpenAPI contract at /openapi.json
 * generated from the same list. `operations` receives the contract's own operation to place in it.
 */
export function serviceApi(
  options: Omit<ServiceRouterOptions, 'operations'> & {
    operations: (contract: Operation) => Operation[];
    contract: Omit<ApiSpec, 'base' | 'operations'>;
    /** Rewrites the generated document (the impact contract folds repeated schemas into $refs). */
    finishContract?: (doc: Json) => Json;
  },
) {
  const spec: ApiSpec = { ...options.contract, base: options.base, operations: [] };
  const operations = options.operations(contractOperation(() => spec, options.finishContract));
  spec.operations = operations.map((op) => op.spec);
  return serviceRouter({ ...options, operations });
}
