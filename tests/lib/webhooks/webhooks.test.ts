/**
 * The pure rules of webhooks: signatures (checked both ways against the Standard Webhooks reference
 * library, and against the spec's own example), the retry schedule at its edges, subscriptions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES, isSubscription, subscribed } from '../../../lib/webhooks/event-types.ts';
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_MS } from '../../../lib/outbox/schedule.ts';
import { newSecret, sign, signedHeaders, verify } from '../../../lib/webhooks/signing.ts';
import { checkEndpointUrl } from '../../../lib/webhooks/inputs.ts';

const NOW_S = 1_700_000_000;

test('our signature verifies with the reference library, and the reference signature with ours', () => {
  for (let i = 0; i < 20; i++) {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'human.task.delivered', n: i, text: 'é ✓' });
    const id = `evt_${i}`;
    const headers = signedHeaders([secret], id, NOW_S, body);
    const reference = new Webhook(secret);
    // The library checks the timestamp against its clock: sign at its now for that part.
    const now = Math.floor(Date.now() / 1000);
    assert.doesNotThrow(() => reference.verify(body, signedHeaders([secret], id, now, body)));
    assert.equal(reference.sign(id, new Date(NOW_S * 1000), body), headers['webhook-signature']);
    assert.equal(
      verify(secret, { id, timestamp: String(NOW_S), signature: headers['webhook-signature'] }, body, NOW_S),
      true,
    );
  }
});

test("the spec's example: the same signature for its message, timestamp and secret", () => {
  // spec/standard-webhooks.md and the reference libraries' tests use this secret and message.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"test": 2432232314}';
  assert.equal(
    sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

test('verify refuses what a receiver must refuse', () => {
  const secret = newSecret();
  const body = '{"a":1}';
  const good = signedHeaders([secret], 'evt_1', NOW_S, body);
  const h = (over: Partial<{ id: string; timestamp: string; signature: string }>) => ({
    id: good['webhook-id'],
    timestamp: good['webhook-timestamp'],
    signature: good['webhook-signature'],
    ...over,
  });
  const cases: Array<[string, ReturnType<typeof h>, string, number, boolean]> = [
    ['as sent', h({}), body, NOW_S, true],
    ['five minutes late, the edge', h({}), body, NOW_S + 300, true],
    ['too late', h({}), body, NOW_S + 301, false],
    ['from the future', h({}), body, NOW_S - 301, false],
    ['another body', h({}), '{"a":2}', NOW_S, false],
    ['another id', h({ id: 'evt_2' }), body, NOW_S, false],
    ['another secret', h({ signature: sign(newSecret(), 'evt_1', NOW_S, body) }), body, NOW_S, false],
    ['one good among several', h({ signature: `v1,AAAA ${good['webhook-signature']}` }), body, NOW_S, true],
    ['no signature', h({ signature: '' }), body, NOW_S, false],
    ['a timestamp that is not a number', h({ timestamp: '1e9' }), body, NOW_S, false],
  ];
  for (const [name, headers, sent, now, ok] of cases) assert.equal(verify(secret, headers, sent, now), ok, name);
});

test('the schedule: ten attempts within a day, each after its delay, a longer Retry-After honoured up to an hour', () => {
  assert.equal(MAX_ATTEMPTS, 10);
  let at = 0;
  for (let attempts = 1; attempts < MAX_ATTEMPTS; attempts++) {
    const next = nextAttemptAt(attempts, at)!;
    assert.equal(next - at, RETRY_DELAYS_MS[attempts - 1]);
    at = next;
  }
  assert.ok(at < 86_400_000, `the last attempt ${at / 3_600_000} h after the first`);
  assert.equal(nextAttemptAt(MAX_ATTEMPTS, at), null, 'then it has failed for good');
  assert.equal(nextAttemptAt(1, 0, 120_000), 120_000, 'Retry-After longer than the plan');
  assert.equal(nextAttemptAt(1, 0, 1_000), 10_000, 'shorter: the plan');
  assert.equal(nextAttemptAt(1, 0, 86_400_000), 3_600_000, 'at most an hour');
});

test('subscriptions: exact types, namespaces, everything; unknown ones refused', () => {
  assert.equal(subscribed(['*'], 'human.task.created'), true);
  assert.equal(subscribed(['human.task.*'], 'human.task.created'), true);
  assert.equal(subscribed(['human.*'], 'human.task.created'), true);
  assert.equal(subscribed(['human.task.delivered'], 'human.task.created'), false);
  assert.equal(subscribed(['human.task.*'], 'webhook.endpoint.test'), false);
  assert.equal(subscribed(['human.tas*'], 'human.task.created'), false);
  for (const ok of ['*', 'human.*', 'human.task.*', ...Object.keys(EVENT_TYPES)])
    assert.equal(isSubscription(ok), true, ok);
  for (const bad of ['', 'human', 'human.task', 'human.task.nope', 'nope.*', 'HUMAN.*', 'human.task.**', '.*'])
    assert.equal(isSubscription(bad), false, bad);
});

test('endpoint URLs: what is refused, in words', () => {
  const cases: Array<[string, boolean, string | null]> = [
    ['https://example.org/hooks', false, null],
    ['http://example.org/hooks', true, null],
    [
      'http://example.org/hooks',
      false,
      'must start with https:// (a live endpoint receives paid task data; http:// is accepted for sandbox endpoints)',
    ],
    ['ftp://example.org', true, 'must start with https://'],
    ['example.org/hooks', true, 'is not an absolute URL such as https://example.org/hooks/trio'],
    ['https://a:b@example.org/', true, 'must not carry a user name or password: each delivery is signed instead'],
    ['https://example.org/#x', true, 'must not have a #fragment'],
  ];
  for (const [url, plain, problem] of cases) assert.equal(checkEndpointUrl(url, plain), problem, url);
});
