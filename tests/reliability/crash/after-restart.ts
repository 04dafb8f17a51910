/**
 * What the restarted server must do, checked over HTTP (the database-side checks are invariants.ts):
 *  - answer /readyz with 200;
 *  - take each order that got no answer before the kill, retried with its Idempotency-Key and body:
 *    a replay (Idempotent-Replayed: true) when it had been committed, else a new task (or 402 when
 *    the poor account's balance is short now); never a second task (invariants.ts checks one
 *    idempotency record per task);
 *  - replay acknowledged orders: the same key and body give the same ref with Idempotent-Replayed;
 *  - keep accepting orders: a new one is 201;
 *  - carry each day count on from what was persisted: the first counted read of a bucket after the
 *    restart reports exactly the persisted count + 1 (the day is loaded, not restarted from 0), or
 *    the limit when the bucket was already full;
 *  - serve the published figures byte for byte as before the first kill.
 * Each returned string is one violation.
 */
import { randomUUID } from 'node:crypto';
import { verifyOrder } from '../../e2e/human/harness.ts';
import { reportedCount, type AckedOrder, type Ledger, type SentOrder } from './load.ts';
import type { Random } from './random.ts';
import type { Callers } from './setup.ts';

export interface RestartOutcome {
  violations: string[];
  /** Unanswered orders that turned out to have been committed before the kill (replayed). */
  unansweredCommitted: number;
  unansweredRetried: number;
}

const call = (url: string, method: string, headers: Record<string, string>, body?: unknown) =>
  fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });

async function order(base: string, sent: SentOrder) {
  const res = await call(
    `${base}/human/v1/tasks`,
    'POST',
    { authorization: `Bearer ${sent.caller.key}`, 'idempotency-key': sent.idempotencyKey },
    sent.body,
  );
  const text = await res.text();
  const ref = res.status === 201 ? (JSON.parse(text) as { data: { ref: string; status: string } }).data : null;
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', data: ref, text };
}

export async function checkAfterRestart(
  base: string,
  callers: Callers,
  ledger: Ledger,
  random: Random,
  expected: { counts: Map<string, number>; figure: { path: string; key: string; body: string } },
): Promise<RestartOutcome> {
  const violations: string[] = [];
  const ready = await call(`${base}/readyz`, 'GET', {});
  if (ready.status !== 200) violations.push(`/readyz after restart: ${ready.status} ${await ready.text()}`);

  const unanswered = ledger.unanswered.splice(0);
  let unansweredCommitted = 0;
  for (const sent of unanswered) {
    const r = await order(base, sent);
    // 402: the first attempt was not stored (a stored one is replayed), and the balance is short now.
    if (r.status === 402) continue;
    if (r.status !== 201 || !r.data) {
      violations.push(`unanswered order retried with its Idempotency-Key: ${r.status} ${r.text.slice(0, 300)}`);
      continue;
    }
    if (r.replayed) unansweredCommitted++;
    ledger.orders.push({ ...sent, ref: r.data.ref, status: r.data.status, at: Date.now() });
  }

  const sample: AckedOrder[] = Array.from({ length: Math.min(10, ledger.orders.length) }, () =>
    random.pick(ledger.orders),
  );
  for (const acked of sample) {
    const r = await order(base, acked);
    if (r.status !== 201 || !r.replayed || r.data?.ref !== acked.ref) {
      violations.push(
        `replay of acknowledged order ${acked.ref}: ${r.status}, replayed ${r.replayed}, ref ${r.data?.ref ?? 'none'}`,
      );
    }
  }

  const fresh: SentOrder = { idempotencyKey: randomUUID(), body: verifyOrder(), caller: callers.orderKeys[0]! };
  const accepted = await order(base, fresh);
  if (accepted.status !== 201 || !accepted.data || accepted.replayed)
    violations.push(`a new order after restart: ${accepted.status} ${accepted.text.slice(0, 300)}`);
  else ledger.orders.push({ ...fresh, ref: accepted.data.ref, status: accepted.data.status, at: Date.now() });

  for (const [service, counted] of [
    ['impact', callers.impactKeys],
    ['funding', callers.fundingKeys],
  ] as const) {
    for (const caller of counted) {
      const headers: Record<string, string> =
        service === 'impact' ? { authorization: `Bearer ${caller.key}` } : { 'x-api-key': caller.key };
      const res = await call(
        `${base}${service === 'impact' ? '/impact/v1/scenarios' : '/funding/v1/sources'}`,
        'GET',
        headers,
      );
      await res.body?.cancel();
      const reported = reportedCount(service, res);
      const limit = Number(res.headers.get(service === 'impact' ? 'x-ratelimit-limit' : 'x-quota-limit'));
      const persisted = expected.counts.get(caller.bucket) ?? 0;
      const want = Math.min(persisted + 1, limit); // a bucket already full stays full (429)
      if (reported !== want)
        violations.push(
          `${caller.bucket}: the first read after restart reports count ${reported}, persisted was ${persisted}`,
        );
    }
  }

  const figure = await call(`${base}${expected.figure.path}`, 'GET', {
    authorization: `Bearer ${expected.figure.key}`,
  });
  const body = await figure.text();
  if (figure.status !== 200 || body !== expected.figure.body)
    violations.push(
      `${expected.figure.path} after restart: ${figure.status}, ${body.length} bytes differ from the ${expected.figure.body.length} served before`,
    );

  return { violations, unansweredCommitted, unansweredRetried: unanswered.length };
}
