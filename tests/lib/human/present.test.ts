/** What clients see of a task, as pure rules over a stored row: polling advice, the result, evidence. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollAfterSeconds, presentEvidence, presentResult, presentTask } from '../../../lib/human/present.ts';
import type { EvidenceRow, TaskRow } from '../../../lib/human/rows.ts';
import type { Status } from '../../../lib/human/states.ts';

const NOW = Date.parse('2026-11-22T09:00:00Z');
const row = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: 7,
  ref: 'tsk_0000000000000000000A',
  account_id: 1,
  key_id: 1,
  environment: 'live',
  capability: 'human.verify',
  spec: '{"claim":"open on Sundays"}',
  country_iso: 'FR',
  city_slug: 'paris',
  sla: 'standard',
  price_cents: 1800,
  max_price_cents: 2000,
  currency: 'EUR',
  status: 'pending',
  version: 1,
  sandbox_plan: null,
  worker_account_id: null,
  created_at: NOW - 60_000,
  updated_at: NOW - 60_000,
  due_at: NOW + 86_400_000,
  dispatched_at: null,
  started_at: null,
  delivered_at: null,
  dispute_deadline: null,
  closed_at: null,
  answer: null,
  confidence_bps: null,
  cancel_reason: null,
  failure_reason: null,
  dispute_reason: null,
  dispute_statement: null,
  disputed_at: null,
  resolution: null,
  resolution_note: null,
  resolved_at: null,
  next_check_at: NOW + 86_400_000,
  metadata: null,
  client_reference: null,
  accept_by: null,
  expiry_reason: null,
  ...over,
});

test('poll_after_s: at most 30 s, at least 1, never past the next change; null once there is nothing to wait for', () => {
  const cases: Array<[Partial<TaskRow>, number | null]> = [
    [{}, 30], // live, due tomorrow
    [{ next_check_at: NOW + 12_000 }, 12],
    [{ next_check_at: NOW + 12_001 }, 13], // rounded up: never before the change
    [{ next_check_at: NOW - 5_000 }, 1], // overdue: soon, not at once
    [{ next_check_at: null }, 30],
    [{ environment: 'test', next_check_at: NOW + 2_000 }, 2],
    [{ environment: 'test', next_check_at: NOW + 600_000 }, 30],
    [{ status: 'delivered' }, null], // an answer exists
    [{ status: 'disputed' }, null],
    [{ status: 'cancelled' }, null],
    [{ status: 'expired' }, null],
  ];
  for (const [over, expected] of cases) assert.equal(pollAfterSeconds(row(over), NOW), expected, JSON.stringify(over));
});

test('a task as clients see it: ISO times, sandbox naming, its spec, dispute and cancellation when they apply', () => {
  const t = presentTask(
    row({ environment: 'test', status: 'cancelled', cancel_reason: 'changed my mind', closed_at: NOW }),
    NOW,
  );
  assert.deepEqual(
    [t.environment, t.status, t.created_at, t.closed_at, t.cancellation, t.failure, t.dispute, t.result_available],
    [
      'sandbox',
      'cancelled',
      '2026-11-22T08:59:00.000Z',
      '2026-11-22T09:00:00.000Z',
      { reason: 'changed my mind' },
      null,
      null,
      false,
    ],
  );
  assert.deepEqual(t.spec, { claim: 'open on Sundays' });
  assert.equal(t.links.result, '/human/v1/tasks/tsk_0000000000000000000A/result');
  const disputed = presentTask(
    row({
      status: 'disputed' as Status,
      disputed_at: NOW,
      dispute_reason: 'wrong_place',
      dispute_statement: 'Not this shop',
    }),
    NOW,
  );
  assert.deepEqual(disputed.dispute, {
    reason: 'wrong_place',
    statement: 'Not this shop',
    opened_at: '2026-11-22T09:00:00.000Z',
    resolution: null,
    resolution_note: null,
    resolved_at: null,
  });
});

test('the result shows the answer only once there is one', () => {
  const answer = '{"verdict":"confirmed"}';
  assert.deepEqual(presentResult(row({ status: 'in_progress', answer, confidence_bps: 9000 }), NOW).answer, null);
  const delivered = presentResult(row({ status: 'delivered', answer, confidence_bps: 9000, delivered_at: NOW }), NOW);
  assert.deepEqual(
    [delivered.answer, delivered.confidence_bps, delivered.delivered_at, delivered.poll_after_s],
    [{ verdict: 'confirmed' }, 9000, '2026-11-22T09:00:00.000Z', null],
  );
});

test('evidence: notes as text, files with their hash, size, position and download link', () => {
  const base: EvidenceRow = {
    id: 3,
    kind: 'photo',
    filename: 'front.jpg',
    note: null,
    captured_at: NOW,
    captured_source: 'exif',
    latitude: 48.8643,
    longitude: 2.3789,
    accuracy_m: 6,
    position_source: 'exif',
    synthetic: 0,
    created_at: NOW,
    sha256: 'ab'.repeat(32),
    media_type: 'image/jpeg',
    size: 1234,
  };
  const [photo, note, unplaced] = presentEvidence(row(), [
    base,
    { ...base, id: 4, kind: 'note', note: 'Queue outside', synthetic: 1 },
    { ...base, id: 5, latitude: null },
  ]);
  assert.deepEqual(photo, {
    id: 'evd_3',
    type: 'photo',
    synthetic: false,
    created_at: '2026-11-22T09:00:00.000Z',
    media_type: 'image/jpeg',
    sha256: 'ab'.repeat(32),
    size_bytes: 1234,
    filename: 'front.jpg',
    captured_at: '2026-11-22T09:00:00.000Z',
    captured_at_source: 'exif',
    position: { latitude: 48.8643, longitude: 2.3789, accuracy_m: 6, source: 'exif' },
    download_url: '/human/v1/tasks/tsk_0000000000000000000A/evidence/evd_3',
  });
  assert.deepEqual(note, {
    id: 'evd_4',
    type: 'note',
    synthetic: true,
    created_at: '2026-11-22T09:00:00.000Z',
    text: 'Queue outside',
  });
  assert.equal((unplaced as { position: unknown }).position, null);
});
