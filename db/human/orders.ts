/**
 * Quoting and ordering (POST /quote, POST /tasks; the MCP quote and create tools call the same).
 *
 * An order is checked completely before anything is written: scope, Idempotency-Key, body, spec
 * against the capability's schema, location and SLA served (422 location_not_served / sla_not_served
 * with alternatives), price within max_price_cents, and for a live order someone available now
 * (409 no_one_available with the nearest cities where someone is: nothing is held). Then one job on
 * the group-commit writer inserts the task, holds the price (live keys) and records the idempotency
 * key, all in one transaction; the caller gets its answer once that commit is on disk.
 *
 * Idempotency: the same key with the same body (canonical JSON) replays the first answer; with a
 * different body it is idempotency_key_reused (422); while the first is being written it is
 * idempotency_key_in_flight (409 with Retry-After: 1). Refusals are DomainErrors; routes/human/errors.ts maps them.
 */
import { findIdempotency, saveIdempotency } from './idempotency.ts';
import { placeHold } from './ledger.ts';
import { insertTask } from './tasks.ts';
import { fingerprint } from '../../lib/human/canonical.ts';
import { definition } from '../../lib/human/capabilities.ts';
import {
  idempotencyKeyInFlight,
  idempotencyKeyRequired,
  idempotencyKeyReused,
  invalidRequest,
  locationNotServed,
  noOneAvailable,
  priceAboveMax,
  slaNotServed,
} from '../../lib/human/errors.ts';
import { acceptWithinMs } from '../../lib/human/availability.ts';
import type { OrderInput, QuoteInput } from '../../lib/human/inputs.ts';
import { validateInput } from '../../lib/human/validate-input.ts';
import { presentTask, type TaskJson } from '../../lib/human/present.ts';
import { alternatives, checkTerms, quote, readQuote, type QuoteAnswer } from '../../lib/human/quote.ts';
import { newTaskRef } from '../../lib/human/refs.ts';
import { planOf, sandboxAcceptBy, sandboxDueAt } from '../../lib/human/sandbox.ts';
import { next, type Transport } from '../../lib/human/transport.ts';
import { requireScope, type HumanCaller, type HumanService } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /quote: public; `input` was validated against QuoteBody (by the router, or the MCP tool). */
export function quoteTask(svc: HumanService, input: QuoteInput, now: number): QuoteAnswer {
  return quote(
    svc.catalogue,
    { capability: input.capability, location: input.location, sla: input.sla ?? 'standard' },
    now,
    svc.quoteSecret,
    svc.available(now),
  );
}

export interface OrderOutcome {
  status: number;
  /** The task as first answered (a replay returns the stored answer, which serializes to the same bytes). */
  task: TaskJson;
  replayed: boolean;
}

/**
 * Checks an Idempotency-Key value: a UUID, bare or as an RFC 8941 quoted string. Returns it
 * lower-cased (a UUID's case carries no meaning).
 */
export function parseIdempotencyKey(raw: string | undefined, transport: Transport = 'rest'): string {
  const name = next(transport, 'idempotencyKey');
  const param = transport === 'rest' ? 'Idempotency-Key' : 'idempotency_key';
  if (raw === undefined || raw.trim() === '') {
    throw idempotencyKeyRequired(
      `An order needs ${name}: a UUID you generate per order and send again when you retry that order.`,
      param,
    );
  }
  const key = raw.trim().replace(/^"(.*)"$/, '$1');
  if (!UUID.test(key))
    throw idempotencyKeyRequired(
      `${transport === 'rest' ? 'Idempotency-Key' : 'idempotency_key'} must be a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e (got a value of ${raw.length} characters).`,
      param,
    );
  return key.toLowerCase();
}

const reused = (transport: Transport) =>
  idempotencyKeyReused(
    `This ${next(transport, 'idempotencyKey').replace(/^the /, '')} was used for a different order in the last 24 hours. Use a new key for a new order.`,
    transport === 'rest' ? 'Idempotency-Key' : 'idempotency_key',
  );

export async function createOrder(
  svc: HumanService,
  caller: HumanCaller,
  idempotencyKey: string | undefined,
  /** Validated against OrderBody (by the router, or the MCP SDK), and as sent: its fingerprint is of every key. */
  input: OrderInput,
  now: number,
): Promise<OrderOutcome> {
  requireScope(caller, 'tasks:write', 'ordering a task');
  const transport = caller.transport;
  const key = parseIdempotencyKey(idempotencyKey, transport);
  const print = fingerprint(input);

  const scope = `${caller.accountId}:${caller.environment}:${key}`;
  const previous = findIdempotency(svc.db, caller.accountId, caller.environment, key, now);
  if (previous) {
    if (previous.fingerprint !== print) throw reused(transport);
    return { status: previous.status, task: storedAnswer(previous.body), replayed: true };
  }
  if (svc.inFlight.has(scope)) {
    throw idempotencyKeyInFlight(
      `An order with this ${next(transport, 'idempotencyKey').replace(/^the /, '')} is being processed. Retry in a second to get its answer.`,
      transport === 'rest' ? 'Idempotency-Key' : 'idempotency_key',
    );
  }

  // Everything below is validation: nothing has been written, and a refusal writes nothing.
  const cat = svc.catalogue;
  const sla = input.sla ?? 'standard';
  const { hours } = checkTerms(cat, input.capability, sla);
  const def = definition(input.capability)!;
  const spec = validateInput(def.spec, input.spec, 'spec.', transport === 'rest' ? 'field' : 'argument') as Record<
    string,
    unknown
  >;
  const { country_iso, city_slug } = input.location;
  const plan = caller.environment === 'test' ? planOf(spec) : null;
  const terms = { capability: input.capability, location: input.location, sla };
  let price = cat.price(input.capability, country_iso, city_slug, sla);
  if (price === undefined) throw unserved(svc, terms, now, transport);
  if (input.quote_id !== undefined)
    price = quotedPrice(
      svc,
      input.quote_id,
      { capability: input.capability, country_iso, city_slug, sla },
      now,
      transport,
    );
  if (price > input.max_price_cents) {
    throw priceAboveMax(
      `The price is ${price} cents, above max_price_cents ${input.max_price_cents}. Nothing was ordered or held. ${next(transport, 'quote')} gives the price first.`,
      'max_price_cents',
    );
  }
  // A live order nobody can take is refused now rather than held for nobody (the sandbox rehearses it;
  // it reads nobody's duty otherwise: its orders are not offered to people).
  const available = caller.environment === 'live' || plan === 'no_one_available' ? svc.available(now) : null;
  if (
    available !== null &&
    (plan === 'no_one_available' || available(country_iso, city_slug, input.capability, caller.accountId) === 0)
  ) {
    const nearest = alternatives(cat, terms, available, { onlyAvailable: true, exceptAccount: caller.accountId });
    throw noOneAvailable(
      `No verified person is available for ${input.capability} in ${country_iso}/${city_slug} now, so nothing was ordered or held. ${nearest.nearest.length ? 'The nearest cities where someone is are listed in alternatives; order there, or' : 'Nobody is available nearby either;'} try again later (${next(transport, 'coverage')} says where people are available now).`,
      'location',
      { alternatives: nearest.nearest },
    );
  }

  const slaMs = hours * 3_600_000;
  const delay = svc.config.sandboxDelayMs;
  svc.inFlight.add(scope);
  try {
    return await svc.writer.submit((): OrderOutcome => {
      // Inside the write transaction, which serialises every process on the file: another worker of
      // a cluster (serve --workers) may have committed this key since the check above.
      const committed = findIdempotency(svc.db, caller.accountId, caller.environment, key, now);
      if (committed) {
        if (committed.fingerprint !== print) throw reused(transport);
        return { status: committed.status, task: storedAnswer(committed.body), replayed: true };
      }
      const task = insertTask(
        svc.db,
        {
          ref: newTaskRef(now),
          account_id: caller.accountId,
          key_id: caller.keyId,
          environment: caller.environment,
          capability: input.capability,
          spec: JSON.stringify(spec),
          country_iso,
          city_slug,
          sla,
          price_cents: price,
          max_price_cents: input.max_price_cents,
          currency: cat.currency(),
          sandbox_plan: plan,
          created_at: now,
          due_at: plan ? sandboxDueAt(plan, now, slaMs, delay) : now + slaMs,
          accept_by: plan ? sandboxAcceptBy(plan, now, delay) : now + acceptWithinMs(hours),
          metadata: input.metadata && Object.keys(input.metadata).length ? JSON.stringify(input.metadata) : null,
          client_reference: input.client_reference ?? null,
        },
        delay,
      );
      if (caller.environment === 'live')
        placeHold(svc.db, caller.accountId, task.id, price, `${task.ref} ordered`, now, next(transport, 'balance'));
      const shown = presentTask(task, now);
      saveIdempotency(svc.db, caller.accountId, caller.environment, key, {
        fingerprint: print,
        status: 201,
        body: JSON.stringify({ data: shown }),
        task_id: task.id,
        created_at: now,
      });
      return { status: 201, task: shown, replayed: false };
    });
  } finally {
    svc.inFlight.delete(scope);
  }
}

/**
 * The answer stored with an Idempotency-Key: the JSON text this module wrote (`{"data": task}`), read
 * back as the value it was. Serializing it again gives the stored bytes (JSON.stringify output
 * round-trips), so a replay is byte for byte the first answer.
 */
function storedAnswer(body: string): TaskJson {
  return (JSON.parse(body) as { data: TaskJson }).data;
}

/**
 * The refusal of an order the catalogue does not serve: the city (422 location_not_served) or the SLA
 * there (422 sla_not_served), with the alternatives a quote would list.
 */
function unserved(
  svc: HumanService,
  terms: { capability: string; location: { country_iso: string; city_slug: string }; sla: string },
  now: number,
  transport: Transport,
) {
  const answer = quoteTask(svc, terms, now);
  if (answer.status !== 'refused') return invalidRequest('The terms changed while ordering; quote again.');
  const refuse = answer.reason === 'sla_not_served' ? slaNotServed : locationNotServed;
  return refuse(
    `${answer.message} Nothing was ordered. ${next(transport, 'quote')} lists the same alternatives.`,
    undefined,
    {
      alternatives: answer.alternatives,
    },
  );
}

/** The price a quote_id promises, when it is ours, unexpired, and for the same terms. */
function quotedPrice(
  svc: HumanService,
  quoteId: string,
  terms: { capability: string; country_iso: string; city_slug: string; sla: string },
  now: number,
  transport: Transport,
): number {
  const quoted = readQuote(quoteId, svc.quoteSecret);
  if (!quoted)
    throw invalidRequest(
      `quote_id is not a quote this service issued. Leave it out, or use one from ${next(transport, 'quote')}.`,
      'quote_id',
    );
  const same =
    quoted.capability === terms.capability &&
    quoted.country_iso === terms.country_iso &&
    quoted.city_slug === terms.city_slug &&
    quoted.sla === terms.sla;
  if (!same)
    throw invalidRequest(
      'quote_id was issued for other terms (capability, location or sla) than this order.',
      'quote_id',
    );
  if (quoted.expires_at <= now) {
    throw invalidRequest(
      `The quote expired at ${new Date(quoted.expires_at).toISOString()}. Ask ${next(transport, 'quote')} again, or order without quote_id at the current price.`,
      'quote_id',
    );
  }
  return quoted.price_cents;
}
