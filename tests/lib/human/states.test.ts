/**
 * The task state machine, table-driven over every (state, event) pair: the allowed ones lead where
 * SPEC says, every other pair is refused, terminal states have no way out, and the money effect of
 * each target state is the one SPEC names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  EVENTS,
  moneyEffect,
  nextStatus,
  STATUSES,
  TERMINAL,
  hasAnswer,
  type Status,
  type TaskEvent,
} from '../../../lib/human/states.ts';

// SPEC "Human task ordering: states and money", written out pair by pair.
const ALLOWED: Record<string, Status> = {
  'pending/accept': 'dispatched',
  'dispatched/start': 'in_progress',
  'in_progress/deliver': 'delivered',
  'in_progress/cannot_do': 'failed',
  'pending/cancel': 'cancelled',
  'dispatched/cancel': 'cancelled',
  'pending/expire': 'expired',
  'dispatched/expire': 'expired',
  'in_progress/expire': 'expired',
  'delivered/review_elapsed': 'completed',
  'delivered/dispute': 'disputed',
  'disputed/resolve_stands': 'completed',
  'disputed/resolve_refund': 'refunded',
};

for (const status of STATUSES) {
  for (const event of EVENTS) {
    const expected = ALLOWED[`${status}/${event}`] ?? null;
    test(`${status} + ${event} → ${expected ?? 'refused'}`, () => {
      assert.equal(nextStatus(status, event as TaskEvent), expected);
    });
  }
}

test('every allowed pair in the table is a real state and event', () => {
  for (const pair of Object.keys(ALLOWED)) {
    const [status, event] = pair.split('/') as [Status, TaskEvent];
    assert.ok(STATUSES.includes(status) && EVENTS.includes(event), pair);
  }
  assert.equal(Object.keys(ALLOWED).length, 13);
});

test('terminal states are exactly completed, cancelled, failed, expired, refunded, and have no exit', () => {
  assert.deepEqual([...TERMINAL].sort(), ['cancelled', 'completed', 'expired', 'failed', 'refunded']);
  for (const status of TERMINAL)
    for (const event of EVENTS) assert.equal(nextStatus(status, event), null, `${status} + ${event}`);
});

test('money: completed captures; cancelled, failed, expired and refunded release; nothing else moves money', () => {
  const effects = Object.fromEntries(STATUSES.map((s) => [s, moneyEffect(s)]));
  assert.deepEqual(effects, {
    pending: null,
    dispatched: null,
    in_progress: null,
    delivered: null,
    disputed: null,
    completed: 'capture',
    cancelled: 'release',
    failed: 'release',
    expired: 'release',
    refunded: 'release',
  });
});

test('an answer exists from delivery on, also after a refund', () => {
  assert.deepEqual(STATUSES.filter(hasAnswer), ['delivered', 'disputed', 'completed', 'refunded']);
});
