/**
 * What clients see of a task, its result and its evidence (REST `data` payloads, and the MCP tools'
 * structured content). Times are ISO 8601 UTC strings. Nothing here names the person who did the task.
 */
import type { EvidenceRow, TaskRow } from './rows.ts';
import { hasAnswer, TERMINAL } from './states.ts';

export const HUMAN_BASE = '/human/v1';
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Live tasks move at a person's pace: polling more often than this tells nothing new. */
const LIVE_POLL_S = 30;
const MAX_SANDBOX_POLL_S = 30;

/**
 * Seconds a client should wait before polling again, or null once there is nothing to wait for (an
 * answer exists or the task ended without one). Never past the moment something is due to change.
 */
export function pollAfterSeconds(
  task: Pick<TaskRow, 'status' | 'next_check_at' | 'environment'>,
  now: number,
): number | null {
  if (hasAnswer(task.status) || TERMINAL.has(task.status)) return null;
  const untilDue = task.next_check_at === null ? Infinity : Math.ceil((task.next_check_at - now) / 1000);
  if (task.environment === 'test') return Math.max(1, Math.min(MAX_SANDBOX_POLL_S, untilDue));
  return Math.max(1, Math.min(LIVE_POLL_S, untilDue));
}

export function presentTask(task: TaskRow, now: number) {
  const links = {
    self: `${HUMAN_BASE}/tasks/${task.ref}`,
    result: `${HUMAN_BASE}/tasks/${task.ref}/result`,
    evidence: `${HUMAN_BASE}/tasks/${task.ref}/evidence`,
    events: `${HUMAN_BASE}/tasks/${task.ref}/events`,
  };
  return {
    ref: task.ref,
    status: task.status,
    environment: task.environment === 'test' ? 'sandbox' : 'live',
    capability: task.capability,
    spec: JSON.parse(task.spec) as Record<string, unknown>,
    location: { country_iso: task.country_iso, city_slug: task.city_slug },
    sla: task.sla,
    price_cents: task.price_cents,
    max_price_cents: task.max_price_cents,
    currency: task.currency,
    created_at: iso(task.created_at)!,
    updated_at: iso(task.updated_at)!,
    due_at: iso(task.due_at)!,
    dispatched_at: iso(task.dispatched_at),
    started_at: iso(task.started_at),
    delivered_at: iso(task.delivered_at),
    dispute_deadline: iso(task.dispute_deadline),
    closed_at: iso(task.closed_at),
    result_available: hasAnswer(task.status),
    cancellation: task.status === 'cancelled' ? { reason: task.cancel_reason } : null,
    failure: task.status === 'failed' ? { reason: task.failure_reason } : null,
    expiry:
      task.status === 'expired'
        ? { reason: task.expiry_reason ?? 'sla_passed', message: EXPIRY_MESSAGES[task.expiry_reason ?? 'sla_passed'] }
        : null,
    accept_by: iso(task.accept_by),
    dispute:
      task.disputed_at === null
        ? null
        : {
            reason: task.dispute_reason!,
            statement: task.dispute_statement!,
            opened_at: iso(task.disputed_at)!,
            resolution: task.resolution,
            resolution_note: task.resolution_note,
            resolved_at: iso(task.resolved_at),
          },
    poll_after_s: pollAfterSeconds(task, now),
    metadata: task.metadata === null ? {} : (JSON.parse(task.metadata) as Record<string, string>),
    client_reference: task.client_reference,
    links,
  };
}

/** Why an expired task expired, said to the client (its hold, if live, was released). */
export const EXPIRY_MESSAGES = {
  not_accepted:
    'No verified person accepted the task in time (accept_by passed); it expired early and any hold was released. Quote again: coverage and quotes say where people are available now.',
  sla_passed: "The task's due time passed before it was delivered; any hold was released.",
} as const;

export type TaskJson = ReturnType<typeof presentTask>;

/** The columns a result is made of (db/human/tasks.ts reads only these for GET …/result). */
export type ResultRow = Pick<
  TaskRow,
  'ref' | 'status' | 'answer' | 'confidence_bps' | 'delivered_at' | 'next_check_at' | 'environment'
>;

export function presentResult(task: ResultRow, now: number) {
  const answered = hasAnswer(task.status);
  return {
    ref: task.ref,
    status: task.status,
    answer: answered && task.answer !== null ? (JSON.parse(task.answer) as Record<string, unknown>) : null,
    confidence_bps: answered ? task.confidence_bps : null,
    delivered_at: iso(task.delivered_at),
    poll_after_s: pollAfterSeconds(task, now),
  };
}

export function presentEvidence(task: TaskRow, rows: EvidenceRow[]) {
  return rows.map((e) => {
    const id = `evd_${e.id}`;
    const common = { id, type: e.kind, synthetic: e.synthetic === 1, created_at: iso(e.created_at)! };
    if (e.kind === 'note') return { ...common, text: e.note! };
    return {
      ...common,
      media_type: e.media_type!,
      sha256: e.sha256!,
      size_bytes: e.size!,
      filename: e.filename,
      captured_at: iso(e.captured_at),
      captured_at_source: e.captured_source,
      position:
        e.latitude === null || e.longitude === null
          ? null
          : {
              latitude: e.latitude,
              longitude: e.longitude,
              accuracy_m: e.accuracy_m,
              source: e.position_source,
            },
      download_url: `${HUMAN_BASE}/tasks/${task.ref}/evidence/${id}`,
    };
  });
}
