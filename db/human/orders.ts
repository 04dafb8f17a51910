/**
 * Quoting and ordering (POST /quote, POST /tasks; the MCP quote and create tools call the same).
 *
 * An order is checked completely before anything is written: scope, Idempotency-Key, body, spec
 * against the capability's schema, location served, price within max_price_cents. Then one job on
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
  priceAboveMax,
} from '../../lib/human/errors.ts';
import { validateInput, type OrderInput, type QuoteInput } from '../../lib/human/inputs.ts';
import { presentTask, type TaskJson } from '../../lib/human/present.ts';
import { checkTerms, quote, readQuote, type QuoteAnswer } from '../../lib/human/quote.ts';
import { newTaskRef } from '../../lib/human/refs.ts';
import { planOf, sandboxDueAt } from '../../lib/human/sandbox.ts';
import { requireScope, type HumanCaller, type HumanService } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /quote: public; `input` was validated against QuoteBody (by the router, or the MCP SDK). */
export function quoteTask(svc: HumanService, input: QuoteInput, now: number): QuoteAnswer {
  return quote(
    svc.catalogue,
    { capability: input.capability, location: input.location, sla: input.sla ?? 'standard' },
    now,
    svc.quoteSecret,
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
export function parseIdempotencyKey(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') {
    throw idempotencyKeyRequired(
      'POST /tasks needs an Idempotency-Key header: a UUID you generate per order and reuse when you retry it.',
    );
  }
  const key = raw.trim().replace(/^"(.*)"$/, '$1');
  if (!UUID.test(key))
    throw idempotencyKeyRequired(
      `Idempotency-Key must be a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e (got a value of ${raw.length} characters).`,
    );
  return key.toLowerCase();
}

export async function createOrder(
  svc: HumanService,
  caller: HumanCaller,
  idempotencyKey: string | undefined,
  /** Validated against OrderBody (by the router, or the MCP SDK), and as sent: its fingerprint is of every key. */
  input: OrderInput,
  now: number,
): Promise<OrderOutcome> {
  requireScope(caller, 'tasks:write', 'ordering a task');
  const key = parseIdempotencyKey(idempotencyKey);
  const print = fingerprint(input);

  const scope = `${caller.accountId}:${caller.environment}:${key}`;
  const previous = findIdempotency(svc.db, caller.accountId, caller.environment, key, now);
  if (previous) {
    if (previous.fingerprint !== print) {
      throw idempotencyKeyReused(
        'This Idempotency-Key was used for a different order in the last 24 hours. Use a new key for a new order.',
      );
    }
    return { status: previous.status, task: storedAnswer(previous.body), replayed: true };
  }
  if (svc.inFlight.has(scope)) {
    throw idempotencyKeyInFlight(
      'An order with this Idempotency-Key is being processed. Retry in a second to get its answer.',
    );
  }

  // Everything below is validation: nothing has been written, and a refusal writes nothing.
  const cat = svc.catalogue;
  const sla = input.sla ?? 'standard';
  const { hours } = checkTerms(cat, input.capability, sla);
  const def = definition(input.capability)!;
  const spec = validateInput(def.spec, input.spec, 'spec.') as Record<string, unknown>;
  const { country_iso, city_slug } = input.location;
  let price = cat.price(input.capability, country_iso, city_slug, sla);
  if (price === undefined) {
    throw invalidRequest(
      `${input.capability} is not served in ${country_iso}/${city_slug} with sla '${sla}'. POST /quote with the same terms lists what is served nearby.`,
      'location',
    );
  }
  if (input.quote_id !== undefined)
    price = quotedPrice(svc, input.quote_id, { capability: input.capability, country_iso, city_slug, sla }, now);
  if (price > input.max_price_cents) {
    throw priceAboveMax(
      `The price is ${price} cents, above max_price_cents ${input.max_price_cents}. Nothing was ordered or held.`,
    );
  }

  const plan = caller.environment === 'test' ? planOf(spec) : null;
  const slaMs = hours * 3_600_000;
  const delay = svc.config.sandboxDelayMs;
  svc.inFlight.add(scope);
  try {
    return await svc.writer.submit((): OrderOutcome => {
      // Inside the write transaction, which serialises every process on the file: another worker of
      // a cluster (serve --workers) may have committed this key since the check above.
      const committed = findIdempotency(svc.db, caller.accountId, caller.environment, key, now);
      if (committed) {
        if (committed.fingerprint !== print)
          throw idempotencyKeyReused(
            'This Idempotency-Key was used for a different order in the last 24 hours. Use a new key for a new order.',
          );
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
        },
        delay,
      );
      if (caller.environment === 'live')
        placeHold(svc.db, caller.accountId, task.id, price, `${task.ref} ordered`, now);
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

/** The price a quote_id promises, when it is ours, unexpired, and for the same terms. */
function quotedPrice(
  svc: HumanService,
  quoteId: string,
  terms: { capability: string; country_iso: string; city_slug: string; sla: string },
  now: number,
): number {
  const quoted = readQuote(quoteId, svc.quoteSecret);
  if (!quoted)
    throw invalidRequest(
      'quote_id is not a quote this service issued. Leave it out, or use one from POST /quote.',
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
      `The quote expired at ${new Date(quoted.expires_at).toISOString()}. Ask POST /quote again, or order without quote_id at the current price.`,
      'quote_id',
    );
  }
  return quoted.price_cents;
}
