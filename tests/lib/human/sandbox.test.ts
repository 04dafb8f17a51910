/**
 * Sandbox plans and the scheduler's clock, pure: which magic value picks which plan, the step each plan
 * takes from each state and when, and what is due at a given moment (expiry included), table-driven.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  nextSandboxStep,
  planOf,
  REVIEW_DELAYS,
  sandboxDueAt,
  SANDBOX_PLANS,
  type SandboxPlan,
} from '../../../lib/human/sandbox.ts';
import { dueEvent, nextCheckAt, type ScheduledTask } from '../../../lib/human/schedule.ts';
import type { Status } from '../../../lib/human/states.ts';

const D = 1000;
const T0 = Date.parse('2026-11-22T10:00:00Z');

test('planOf reads the first top-level string that is exactly sandbox:<plan>', () => {
  const cases: Array<[Record<string, unknown>, SandboxPlan]> = [
    [{ claim: 'sandbox:fail', subject: 'x' }, 'fail'],
    [{ subject: 'x', claim: 'sandbox:low_confidence' }, 'low_confidence'],
    [{ claim: 'a shop is open', subject: 'x' }, 'deliver'],
    [{ claim: 'sandbox:nonsense' }, 'deliver'],
    [{ claim: ' sandbox:fail' }, 'deliver'],
    [{ nested: { claim: 'sandbox:fail' } }, 'deliver'],
    [{ subject: 'sandbox:expire', claim: 'sandbox:fail' }, 'expire'],
  ];
  for (const [spec, plan] of cases) assert.equal(planOf(spec), plan, JSON.stringify(spec));
  for (const plan of SANDBOX_PLANS) assert.equal(planOf({ claim: `sandbox:${plan}` }), plan);
});

const times = {
  created_at: T0,
  accept_by: null,
  due_at: T0 + 86_400_000,
  dispatched_at: T0 + D,
  started_at: T0 + 2 * D,
  delivered_at: T0 + 3 * D,
  dispute_deadline: T0 + 3 * D + REVIEW_DELAYS * D,
  disputed_at: T0 + 5 * D,
};

test('each plan takes its step from each state, at its time', () => {
  const cases: Array<[SandboxPlan, Status, string | null, number | null]> = [
    ['deliver', 'pending', 'accept', T0 + D],
    ['deliver', 'dispatched', 'start', T0 + 2 * D],
    ['deliver', 'in_progress', 'deliver', T0 + 3 * D],
    ['deliver', 'delivered', 'review_elapsed', T0 + 3 * D + REVIEW_DELAYS * D],
    ['deliver', 'disputed', 'resolve_stands', T0 + 6 * D],
    ['dispute_refund', 'disputed', 'resolve_refund', T0 + 6 * D],
    ['fail', 'in_progress', 'cannot_do', T0 + 3 * D],
    ['low_confidence', 'in_progress', 'deliver', T0 + 3 * D],
    ['expire', 'pending', 'expire', times.due_at],
    ['stay_pending', 'pending', 'expire', times.due_at],
    ['stay_dispatched', 'pending', 'accept', T0 + D],
    ['stay_dispatched', 'dispatched', 'expire', times.due_at],
    ['deliver', 'completed', null, null],
    ['deliver', 'cancelled', null, null],
  ];
  for (const [plan, status, event, at] of cases) {
    const step = nextSandboxStep(plan, status, times, D);
    assert.deepEqual(step && [step.event, step.at], event === null ? null : [event, at], `${plan} in ${status}`);
  }
});

test('the expire plan is due after one delay; the others after their SLA', () => {
  assert.equal(sandboxDueAt('expire', T0, 86_400_000, D), T0 + D);
  assert.equal(sandboxDueAt('deliver', T0, 86_400_000, D), T0 + 86_400_000);
});

const task = (over: Partial<ScheduledTask>): ScheduledTask => ({
  environment: 'live',
  status: 'pending',
  sandbox_plan: null,
  created_at: T0,
  accept_by: null,
  due_at: T0 + 4 * 3_600_000,
  dispatched_at: null,
  started_at: null,
  delivered_at: null,
  dispute_deadline: null,
  disputed_at: null,
  ...over,
});

test('what is due, and when to look next', () => {
  const cases: Array<[string, ScheduledTask, number, string | null, number | null]> = [
    ['live pending before its due time', task({}), T0 + 1000, null, T0 + 4 * 3_600_000],
    ['live pending at its due time expires', task({}), T0 + 4 * 3_600_000, 'expire', T0 + 4 * 3_600_000],
    [
      'live in progress past due expires',
      task({ status: 'in_progress' }),
      T0 + 5 * 3_600_000,
      'expire',
      T0 + 4 * 3_600_000,
    ],
    [
      'live delivered within the window',
      task({ status: 'delivered', dispute_deadline: T0 + 72 * 3_600_000 }),
      T0 + 3_600_000,
      null,
      T0 + 72 * 3_600_000,
    ],
    [
      'live delivered after the window completes',
      task({ status: 'delivered', dispute_deadline: T0 + 72 * 3_600_000 }),
      T0 + 72 * 3_600_000,
      'review_elapsed',
      T0 + 72 * 3_600_000,
    ],
    ['live disputed waits for an operator', task({ status: 'disputed' }), T0 + 1e10, null, null],
    ['live completed: nothing', task({ status: 'completed' }), T0 + 1e10, null, null],
    [
      'sandbox pending before its first step',
      task({ environment: 'test', sandbox_plan: 'deliver' }),
      T0 + D - 1,
      null,
      T0 + D,
    ],
    [
      'sandbox pending at its first step',
      task({ environment: 'test', sandbox_plan: 'deliver' }),
      T0 + D,
      'accept',
      T0 + D,
    ],
    [
      'sandbox step due before the deadline happens first',
      task({ environment: 'test', sandbox_plan: 'deliver', due_at: T0 + 2 * D }),
      T0 + 10 * D,
      'accept',
      T0 + D,
    ],
    [
      'sandbox past its deadline expires',
      task({ environment: 'test', sandbox_plan: 'stay_pending', due_at: T0 + 2 * D }),
      T0 + 10 * D,
      'expire',
      T0 + 2 * D,
    ],
  ];
  for (const [name, t, now, event, next] of cases) {
    assert.equal(dueEvent(t, now, D), event, name);
    assert.equal(nextCheckAt(t, D), next, name);
  }
});
