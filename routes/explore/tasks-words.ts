/**
 * How the tasks playground puts the human API's fields into words: states, money (integer cents),
 * instants (UTC), confidence (basis points), and a task's history rebuilt from the timestamps the API
 * gives. Pure: every function takes what the API returned.
 */
import { html, type Html } from '../../lib/html.ts';

export interface TaskJson {
  ref: string;
  status: string;
  environment: string;
  capability: string;
  spec: Record<string, unknown>;
  location: { country_iso: string; city_slug: string };
  sla: string;
  price_cents: number;
  max_price_cents: number;
  currency: string;
  created_at: string;
  updated_at: string;
  due_at: string;
  dispatched_at: string | null;
  started_at: string | null;
  delivered_at: string | null;
  dispute_deadline: string | null;
  closed_at: string | null;
  result_available: boolean;
  cancellation: { reason: string | null } | null;
  failure: { reason: string | null } | null;
  dispute: {
    reason: string;
    statement: string;
    opened_at: string;
    resolution: string | null;
    resolution_note: string | null;
    resolved_at: string | null;
  } | null;
  poll_after_s: number | null;
}

export const STATE_WORDS: Record<string, { label: string; meaning: string }> = {
  pending: { label: 'Pending', meaning: 'ordered; waiting for a verified person to accept it' },
  dispatched: { label: 'Dispatched', meaning: 'a person has accepted it and will go' },
  in_progress: { label: 'In progress', meaning: 'the person is doing it' },
  delivered: {
    label: 'Delivered',
    meaning: 'the answer and evidence are in; you may dispute them until the dispute window closes',
  },
  disputed: {
    label: 'Disputed',
    meaning: 'you disputed the answer; an operator decides whether it stands or is refunded',
  },
  completed: { label: 'Completed', meaning: 'the answer stands; the task is closed' },
  cancelled: { label: 'Cancelled', meaning: 'you cancelled it before anyone started' },
  failed: { label: 'Failed', meaning: 'the person could not do it' },
  expired: { label: 'Expired', meaning: 'the SLA passed before delivery' },
  refunded: { label: 'Refunded', meaning: 'the dispute was upheld; the price was returned' },
};

export const stateLabel = (status: string) => STATE_WORDS[status]?.label ?? status;

export function stateWords(status: string): Html {
  const words = STATE_WORDS[status];
  return html`<strong class="state state-${status}">${words?.label ?? status}</strong>${words ? `: ${words.meaning}` : ''}`;
}

export function money(cents: number, currency: string): string {
  const amount = new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(cents / 100);
  return `${amount} (${cents.toLocaleString('en-GB')} cents)`;
}

/** An ISO instant as "2026-11-22 10:00:02 UTC", in a <time> element. */
export function when(iso: string | null): Html {
  if (!iso) return html`—`;
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`;
}

/** 9500 → "95 % (9,500 basis points)". */
export function confidenceWords(bps: number): string {
  return `${(bps / 100).toLocaleString('en-GB', { maximumFractionDigits: 2 })} % (${bps.toLocaleString('en-GB')} basis points)`;
}

export const durationWords = (s: number) =>
  s >= 7200 ? `${Math.round(s / 3600)} hours` : s >= 120 ? `${Math.round(s / 60)} minutes` : `${s} s`;

/** The task's states so far, oldest first, from the API's timestamps. */
export function history(task: TaskJson): Array<{ at: string; status: string; note: string }> {
  const steps: Array<{ at: string | null; status: string; note: string }> = [
    { at: task.created_at, status: 'pending', note: 'ordered' },
    { at: task.dispatched_at, status: 'dispatched', note: '' },
    { at: task.started_at, status: 'in_progress', note: '' },
    { at: task.delivered_at, status: 'delivered', note: '' },
    {
      at: task.dispute?.opened_at ?? null,
      status: 'disputed',
      note: task.dispute ? `reason: ${task.dispute.reason}` : '',
    },
  ];
  if (task.closed_at && !['pending', 'dispatched', 'in_progress', 'delivered', 'disputed'].includes(task.status)) {
    const note = task.cancellation
      ? `reason: ${task.cancellation.reason ?? 'not given'}`
      : task.failure
        ? `reason: ${task.failure.reason ?? 'not given'}`
        : task.dispute?.resolution
          ? `dispute resolved: ${task.dispute.resolution}${task.dispute.resolution_note ? ` (${task.dispute.resolution_note})` : ''}`
          : '';
    steps.push({ at: task.closed_at, status: task.status, note });
  }
  return steps
    .filter((s): s is { at: string; status: string; note: string } => s.at !== null)
    .sort((a, b) => a.at.localeCompare(b.at));
}
