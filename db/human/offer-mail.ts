/**
 * E-mail about tasks (issue 35), written in the transaction of the task change that causes it
 * (db/human/tasks.ts), through the mail outbox (db/mail/outbox.ts):
 *
 * - a live task ordered where verified people are on duty, in their areas and capabilities, is
 *   e-mailed to those of them who chose it (the console's worker page) and whose address is
 *   confirmed: one message per task and person (the outbox's `about`), never to the client's own
 *   account; when the task leaves `pending` (someone accepted it, or it was cancelled or expired),
 *   the messages not yet sent are withdrawn;
 * - a dispute's outcome is e-mailed to the client account, when its address is confirmed. Clients
 *   keep webhooks (human.task.completed / refunded) as their main channel.
 */
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { cancelMail, queueMail } from '../mail/outbox.ts';
import { unsubscribePath } from '../mail/unsubscribe.ts';
import type { TaskRow } from '../../lib/human/rows.ts';

const statements = statementsFor((db) => ({
  // From the partial index of people who chose it (migration 023): nothing to read when nobody did.
  people: db.prepare(`SELECT a.id, a.email FROM human_workers w INDEXED BY human_workers_offer_mail
      CROSS JOIN accounts a ON a.id = w.account_id
      WHERE w.offer_mail = 1 AND w.revoked_at IS NULL AND w.on_duty = 1 AND (w.on_duty_until IS NULL OR w.on_duty_until > @now)
        AND a.email_status = 'verified' AND a.id <> @client
        AND (w.capabilities IS NULL OR ' ' || w.capabilities || ' ' LIKE '% ' || @capability || ' %')
        AND EXISTS (SELECT 1 FROM human_worker_areas ar WHERE ar.account_id = w.account_id AND ar.country_iso = @country
                    AND (ar.city_slug = '*' OR ar.city_slug = @city))`),
  client: db.prepare("SELECT email FROM accounts WHERE id = ? AND email_status = 'verified'").pluck(),
  setOfferMail: db.prepare('UPDATE human_workers SET offer_mail = ? WHERE account_id = ?'),
}));

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** A new live task: e-mails the people on duty who chose it. */
export function mailOffer(db: Db, task: TaskRow, now: number): number {
  if (task.environment !== 'live') return 0;
  const people = statements(db).people.all({
    now,
    client: task.account_id,
    country: task.country_iso,
    city: task.city_slug,
    capability: task.capability,
  }) as Array<{ id: number; email: string }>;
  for (const p of people)
    queueMail(db, {
      accountId: p.id,
      to: p.email,
      kind: 'task_offer',
      about: `task:${task.ref}`,
      data: {
        ref: task.ref,
        capability: task.capability,
        place: task.city_slug === '*' ? task.country_iso : `${task.city_slug}, ${task.country_iso}`,
        price: money(task.price_cents, task.currency),
        accept_by: task.accept_by,
        due_at: task.due_at,
        unsubscribe: unsubscribePath(db, `tasks.${p.id}`),
      },
      now,
    });
  return people.length;
}

/** The task left `pending`: its offers not yet sent are withdrawn. */
export const withdrawOffer = (db: Db, task: Pick<TaskRow, 'ref'>, now: number) =>
  cancelMail(db, 'task_offer', `task:${task.ref}`, now);

/** An operator decided a dispute: the client account is told, when its address is confirmed. */
export function mailDisputeOutcome(db: Db, task: TaskRow, now: number): void {
  const to = statements(db).client.get(task.account_id) as string | undefined;
  if (to === undefined || (task.resolution !== 'answer_stands' && task.resolution !== 'refunded')) return;
  queueMail(db, {
    accountId: task.account_id,
    to,
    kind: 'dispute_outcome',
    about: `task:${task.ref}`,
    data: { ref: task.ref, resolution: task.resolution, note: task.resolution_note, environment: task.environment },
    now,
  });
}

/** A verified person's choice to be e-mailed task offers (the console's worker page). */
export const setOfferMail = (db: Db, accountId: number, on: boolean) =>
  void statements(db).setOfferMail.run(on ? 1 : 0, accountId);
