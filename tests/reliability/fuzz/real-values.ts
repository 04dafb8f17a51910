/**
 * Real identifiers and bodies, so that valid requests reach 2xx: product slugs, call ids, the
 * caller's own task refs (in the state an operation needs), evidence ids, priced places and a spec
 * valid for the capability ordered, read from the World when the request is built.
 */
import { randomUUID } from 'node:crypto';
import type { Operation, Param } from './operations.ts';
import type { Plan } from './requests.ts';
import { WEBHOOK_URL, type HumanKey, type World } from './world.ts';

export const pickFrom = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const isMcp = (op: Operation) => op.service === 'human' && op.path === '/mcp';

export const OMIT = '\u0000omit';

/** A real identifier for a parameter, when the plan asks for one and the server has any (OMIT: leave it out). */
export function realValue(
  op: Operation,
  p: Param,
  plan: Plan,
  i: number,
  world: World,
  caller: HumanKey,
): string | undefined {
  const slot = i % plan.picks.length;
  if (!plan.real[slot]) return undefined;
  const n = plan.picks[slot]!;
  const s = (name: string) => pickFrom(world.statics(name), n);
  if (op.service === 'impact') {
    if (p.name === 'slug')
      return s(
        op.path.startsWith('/material') ? 'materials' : op.path.startsWith('/conflict') ? 'conflicts' : 'products',
      );
    if (p.name === 'a' || p.name === 'b') return pickFrom(world.statics('products'), n + (p.name === 'b' ? 1 : 0));
    if (p.name === 'iso3') return s('countries');
    if (p.name === 'code') return s('channels');
    if (p.name === 'id') return s('runs');
    if (p.name === 'category') return s(op.path === '/spend' ? 'coicop' : 'categories');
    if (p.name === 'q') return s('productNames')?.slice(0, 2 + (n % 10));
    if (p.name === 'amount') return String(1 + (n % 5000));
  }
  if (op.service === 'funding') {
    if (p.name === 'id') return op.path.startsWith('/saved_searches') ? pickFrom(world.savedSearches(), n) : s('calls');
    if (p.name === 'q') return s('callWords');
    if (p.name === 'country') return s('fundingCountries');
    if (p.name === 'cursor') return OMIT;
  }
  if (op.service === 'human') {
    if (p.name === 'capability') return s('capabilities');
    if (p.name === 'id' && op.path.startsWith('/webhook_endpoints')) return pickFrom(world.endpoints(caller), n);
    if (p.name === 'id' && op.path.startsWith('/events')) return pickFrom(world.events(caller), n);
    if (p.name === 'task') return pickFrom(world.refs(caller), n);
    if (p.name === 'type') return OMIT;
    if (p.name === 'ref') {
      if (n % 10 === 0) return pickFrom(world.foreignRefs(caller), n); // another account's task: 404
      const preferred = op.path.endsWith('/cancel')
        ? ['pending', 'dispatched']
        : op.path.endsWith('/dispute')
          ? ['delivered']
          : op.path.endsWith('/result') || op.path.includes('/evidence')
            ? ['delivered', 'completed', 'disputed']
            : [];
      return pickFrom(world.refs(caller, preferred), n);
    }
    if (p.name === 'created_after' || p.name === 'created_before')
      return new Date(world.now() + (p.name === 'created_after' ? -1 : 1) * (n % 72) * 3_600_000).toISOString();
    if (p.name === 'cursor') return OMIT; // a real cursor comes from a previous page; a made-up one is refused
  }
  return undefined;
}

/** A body valid for the contract and, mostly, for the server's catalogue: real capability, priced place, a spec for it. */
const SAVED_QUERIES = [
  'q=hidr%C3%B3geno&status=open',
  'applicant_type=sme,self_employed&budget_unstated=exclude',
  'https://trio.example/explore/funding?q=energ%C3%ADa&sort=deadline',
  'q=digital&budget_min=100000',
];

export function fixBody(op: Operation, plan: Plan, world: World, caller: HumanKey): unknown {
  const body = structuredClone(plan.body);
  const n = plan.picks[1]!;
  if (isMcp(op)) return fixMcp(body, plan, world, caller);
  if (!isObject(body) || !plan.real[1]) return body;
  if (op.path.startsWith('/webhook_endpoints')) {
    if ('url' in body || op.path === '/webhook_endpoints') body.url = WEBHOOK_URL;
    if ('event_types' in body) body.event_types = plan.real[2] ? ['*'] : ['human.task.*'];
    if ('enabled' in body && plan.real[3]) body.enabled = true;
  }
  if (op.path.endsWith('/replay')) {
    const endpoint = pickFrom(world.endpoints(caller), n);
    if (endpoint && plan.real[2]) body.endpoint = endpoint;
    else delete body.endpoint;
  }
  if (op.path === '/saved_searches') {
    // A query /search takes, as a grant seeker saves one (a random string is refused by /search's checks).
    body.query = SAVED_QUERIES[n % SAVED_QUERIES.length];
    if (plan.real[2]) body.name = 'Hidrógeno, abiertas';
  }
  if (op.path === '/quote' || op.path === '/tasks') {
    const offer = pickFrom(world.statics('offers'), n)?.split(' ');
    if (offer) {
      const [capability, country_iso, city_slug, sla] = offer as [string, string, string, string];
      body.capability = capability;
      body.location = { country_iso, city_slug };
      if (plan.real[2]) body.sla = sla;
      else delete body.sla;
      if (op.path === '/tasks') {
        body.spec = structuredClone(plan.specs[capability] ?? {});
        const spec = body.spec as Record<string, unknown>;
        const firstString = Object.keys(spec).find((k) => typeof spec[k] === 'string');
        if (plan.magic && firstString) spec[firstString] = plan.magic;
        if (plan.bigPrice) body.max_price_cents = 10_000_000;
        if (plan.real[3]) delete body.quote_id;
      }
    }
  }
  return body;
}

function fixMcp(body: unknown, plan: Plan, world: World, caller: HumanKey): unknown {
  const call = Array.isArray(body) ? body[0] : body;
  if (!isObject(call) || call.method !== 'tools/call' || !isObject(call.params) || !isObject(call.params.arguments))
    return body;
  const args = call.params.arguments;
  const n = plan.picks[2]!;
  if ('wait_s' in args) args.wait_s = 0; // get_task_result would otherwise wait up to 30 real seconds
  if (!plan.real[1]) return body;
  if ('ref' in args)
    args.ref =
      pickFrom(
        world.refs(
          caller,
          call.params.name === 'cancel_task'
            ? ['pending', 'dispatched']
            : call.params.name === 'dispute_task'
              ? ['delivered']
              : [],
        ),
        n,
      ) ?? args.ref;
  if ('idempotency_key' in args) args.idempotency_key = randomUUID();
  if ('capability' in args || 'location' in args) {
    const offer = pickFrom(world.statics('offers'), n)?.split(' ');
    if (offer) {
      const [capability, country_iso, city_slug, sla] = offer as [string, string, string, string];
      if ('capability' in args) args.capability = capability;
      if ('location' in args) args.location = { country_iso, city_slug };
      if ('sla' in args) args.sla = sla;
      if ('spec' in args) args.spec = structuredClone(plan.specs[capability] ?? {});
      if ('max_price_cents' in args) args.max_price_cents = 10_000_000;
      delete args.quote_id;
    }
  }
  return body;
}
