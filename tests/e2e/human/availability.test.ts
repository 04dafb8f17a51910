/**
 * Truthful availability (issue 26): coverage and quotes count the verified people on duty per city,
 * capability and SLA (cross-checked against who was put on duty); a live order where nobody is
 * available is refused with alternatives and holds nothing; a live task nobody accepts expires at
 * its acceptance bound with its hold released and the reason said; the sandbox rehearses both; the
 * demo's live cities all have someone.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { acceptTask } from '../../../db/human/work.ts';
import { revokeWorker, setDuty } from '../../../db/human/workers.ts';
import { startTestServer } from '../../helpers/server.ts';
import {
  advance,
  checkLedgerAfterEach,
  SANDBOX_DELAY_MS as D,
  startHumanServer,
  verifyOrder,
  type HumanServer,
} from './harness.ts';

let server: HumanServer;
before(async () => {
  server = await startHumanServer({ inProcess: true });
});
after(() => server.cleanup());
checkLedgerAfterEach(() => server);

type Cov = {
  countries: Array<{
    country_iso: string;
    cities: Array<{
      city_slug: string;
      capabilities: Array<{
        capability: string;
        availability: Array<{ sla: string; available_now: boolean; people: string; accept_within_s: number }>;
      }>;
    }>;
  }>;
};
async function coverage(): Promise<Cov> {
  return (await server.call('GET', '/coverage', null)).json.data;
}
function at(cov: Cov, country: string, city: string, capability: string) {
  return cov.countries
    .find((c) => c.country_iso === country)!
    .cities.find((c) => c.city_slug === city)!
    .capabilities.find((c) => c.capability === capability)!.availability;
}
const quote = async (city: string, country = 'FR', capability = 'human.verify', sla = 'standard') =>
  (await server.call('POST', '/quote', null, { capability, location: { country_iso: country, city_slug: city }, sla }))
    .json.data;

/** Everyone off duty but the given people (the harness's staff too). */
function onlyOnDuty(...accounts: number[]) {
  server.app.db.prepare('UPDATE human_workers SET on_duty = 0, on_duty_until = NULL').run();
  for (const id of accounts) setDuty(server.app.db, id, true, null);
}

test('coverage and quotes count the people on duty, per city, capability and SLA, as a band', async () => {
  onlyOnDuty(server.staff.accountId); // on duty in FR, ES, DE, PT for every capability
  let cov = await coverage();
  assert.deepEqual(at(cov, 'FR', 'paris', 'human.verify'), [
    { sla: 'standard', available_now: true, people: '1-2', accept_within_s: 7200 },
    { sla: 'express', available_now: true, people: '1-2', accept_within_s: 3600 },
  ]);
  const photographers = [1, 2, 3].map(() => server.person(['FR'], { capabilities: ['human.photo'] }));
  const later = server.person(['FR']);
  setDuty(server.app.db, later.accountId, true, server.clock.ms + 60_000); // on duty for a minute
  const off = server.person(['FR'], { onDuty: false });
  const revoked = server.person(['FR']);
  revokeWorker(server.app.db, revoked.accountId, server.clock.ms);
  cov = await coverage();
  // verify: the staff and the one-minute person; photo: also the three photographers.
  assert.equal(at(cov, 'FR', 'paris', 'human.verify')[0]!.people, '1-2');
  assert.equal(at(cov, 'FR', 'paris', 'human.photo')[0]!.people, '3-5');
  assert.equal(
    at(cov, 'FR', 'lyon', 'human.photo')[0]!.people,
    '3-5',
    'a person of the whole country counts in each city',
  );
  assert.equal(at(cov, 'ES', 'madrid', 'human.photo')[0]!.people, '1-2');
  server.person(['FR'], { capabilities: ['human.photo'] });
  server.person(['FR'], { capabilities: ['human.photo'] });
  assert.equal(at(await coverage(), 'FR', 'paris', 'human.photo')[0]!.people, '6+');
  // The quote says what coverage says.
  const q = await quote('paris', 'FR', 'human.photo');
  assert.equal(q.status, 'quoted');
  assert.deepEqual(q.availability, { available_now: true, people: '6+', accept_within_s: 7200 });
  assert.deepEqual(q.alternatives, []);
  // Past the one-minute person's end, nobody but the staff for verify; the off-duty and revoked never counted.
  server.clock.advance(60_000);
  onlyOnDuty(); // everyone off: nobody
  cov = await coverage();
  assert.deepEqual(
    cov.countries
      .flatMap((c) => c.cities.flatMap((city) => city.capabilities.flatMap((x) => x.availability.map((a) => a.people))))
      .filter((p) => p !== '0'),
    [],
  );
  void photographers;
  void off;
});

test('a live order where nobody is available: 409 no_one_available with the nearest cities where someone is; nothing held', async () => {
  const madrid = server.person(['ES']);
  onlyOnDuty(madrid.accountId);
  const buyer = server.account('live', { balance: 10_000 });
  const q = await quote('paris');
  assert.deepEqual([q.status, q.availability.available_now, q.availability.people], ['quoted', false, '0']);
  assert.ok(
    q.alternatives.length > 0 &&
      q.alternatives.every(
        (a: { available_now: boolean; location: { country_iso: string } }) =>
          a.available_now && a.location.country_iso === 'ES',
      ),
  );
  const key = randomUUID();
  const refused = await server.order(buyer.key, verifyOrder(), key);
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.json.error.code, 'no_one_available');
  assert.match(
    refused.json.error.message,
    /No verified person is available for human.verify in FR\/paris now, so nothing was ordered or held/,
  );
  assert.deepEqual(
    refused.json.error.alternatives.map((a: { location: { city_slug: string } }) => a.location.city_slug),
    q.alternatives.map((a: { location: { city_slug: string } }) => a.location.city_slug),
  );
  const balance = (await server.call('GET', '/balance', buyer.key)).json.data;
  assert.deepEqual([balance.available_cents, balance.held_cents], [10_000, 0]);
  assert.equal((await server.call('GET', '/tasks', buyer.key)).json.data.length, 0);
  // Once someone is on duty, the same Idempotency-Key orders.
  onlyOnDuty(server.staff.accountId);
  const ordered = await server.order(buyer.key, verifyOrder(), key);
  assert.equal(ordered.status, 201, ordered.text);
});

test("the ordering account's own people do not count: nobody takes their own order", async () => {
  const buyer = server.account('live', { balance: 10_000 });
  const { verifyWorker } = await import('../../../db/human/workers.ts');
  verifyWorker(server.app.db, buyer.accountId, [{ country_iso: 'FR', city_slug: '*' }], server.clock.ms);
  onlyOnDuty(buyer.accountId);
  assert.equal((await quote('paris')).availability.available_now, true, 'the public quote counts them');
  const refused = await server.order(buyer.key, verifyOrder());
  assert.equal(refused.json.error.code, 'no_one_available');
  onlyOnDuty(server.staff.accountId);
});

test('a live task nobody accepts expires at accept_by: hold released, the reason said, the webhook sent', async () => {
  onlyOnDuty(server.staff.accountId);
  const buyer = server.account('live', { balance: 10_000 });
  const order = await server.order(buyer.key, verifyOrder({ sla: 'express', max_price_cents: 5000 }));
  assert.equal(order.status, 201, order.text);
  const task = order.json.data;
  assert.equal(Date.parse(task.accept_by) - Date.parse(task.created_at), 3_600_000, 'express: an hour');
  assert.equal((await server.call('GET', '/balance', buyer.key)).json.data.held_cents, task.price_cents);
  await advance(server, 3_600_000 - 1);
  assert.equal((await server.call('GET', `/tasks/${task.ref}`, buyer.key)).json.data.status, 'pending');
  await advance(server, 1);
  const expired = (await server.call('GET', `/tasks/${task.ref}`, buyer.key)).json.data;
  assert.equal(expired.status, 'expired');
  assert.equal(expired.expiry.reason, 'not_accepted');
  assert.match(expired.expiry.message, /No verified person accepted the task in time/);
  assert.equal(Date.parse(expired.closed_at), Date.parse(task.accept_by));
  const balance = (await server.call('GET', '/balance', buyer.key)).json.data;
  assert.deepEqual([balance.available_cents, balance.held_cents], [10_000, 0]);
  const result = (await server.call('GET', `/tasks/${task.ref}/result`, buyer.key)).json.data;
  assert.equal(result.poll_after_s, null);
  const events = (await server.call('GET', `/events?task=${task.ref}`, buyer.key)).json.data;
  assert.equal(events[0].type, 'human.task.expired');
  assert.equal(events[0].data.task.expiry.reason, 'not_accepted');
  assert.equal(events[0].data.previous_status, 'pending');
});

test('a task accepted in time does not expire at accept_by; it expires only when its SLA passes', async () => {
  onlyOnDuty(server.staff.accountId);
  const buyer = server.account('live', { balance: 10_000 });
  const task = (await server.order(buyer.key, verifyOrder())).json.data;
  await acceptTask(server.app.ctx.human, server.staff.accountId, task.ref, server.clock.ms);
  await advance(server, 2 * 3_600_000);
  assert.equal((await server.call('GET', `/tasks/${task.ref}`, buyer.key)).json.data.status, 'dispatched');
  await advance(server, 22 * 3_600_000);
  const expired = (await server.call('GET', `/tasks/${task.ref}`, buyer.key)).json.data;
  assert.deepEqual([expired.status, expired.expiry.reason], ['expired', 'sla_passed']);
});

test('the sandbox rehearses both: sandbox:no_one_available is refused; sandbox:not_accepted expires early', async () => {
  onlyOnDuty(); // the sandbox does not depend on people
  const buyer = server.account('test');
  assert.equal((await server.order(buyer.key, verifyOrder())).status, 201);
  const refused = await server.order(
    buyer.key,
    verifyOrder({ spec: { claim: 'sandbox:no_one_available', subject: 'x' } }),
  );
  assert.equal(refused.status, 409);
  assert.equal(refused.json.error.code, 'no_one_available');
  const task = (await server.order(buyer.key, verifyOrder({ spec: { claim: 'sandbox:not_accepted', subject: 'x' } })))
    .json.data;
  assert.equal(Date.parse(task.accept_by) - Date.parse(task.created_at), 2 * D);
  await advance(server, 2 * D);
  const expired = (await server.call('GET', `/tasks/${task.ref}`, buyer.key)).json.data;
  assert.deepEqual([expired.status, expired.expiry.reason], ['expired', 'not_accepted']);
  onlyOnDuty(server.staff.accountId);
});

test('the demo is coherent: every live city has someone available for every capability it serves', async () => {
  const demo = await startTestServer({ inProcess: true });
  try {
    const cov = (await demo.get('/human/v1/coverage')).json.data as Cov;
    const cities = cov.countries.flatMap((c) => c.cities.map((city) => ({ ...city, country: c.country_iso })));
    assert.ok(cities.length >= 8);
    for (const city of cities)
      for (const c of city.capabilities)
        for (const a of c.availability)
          assert.equal(a.available_now, true, `${city.country}/${city.city_slug} ${c.capability} ${a.sla}`);
    assert.equal(
      (demo.app.db.prepare('SELECT count(*) FROM human_workers WHERE on_duty = 1').pluck().get() as number) >=
        cities.length,
      true,
    );
  } finally {
    await demo.cleanup();
  }
});
