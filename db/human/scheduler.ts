/**
 * The scheduler: moves tasks whose `next_check_at` has passed. Live tasks expire when their SLA passes
 * undelivered and complete when their dispute window closes; sandbox tasks also take their plan's
 * steps (lib/human/sandbox.ts), with a synthetic answer and evidence when they deliver.
 *
 * All state is in the database (next_check_at is indexed), and a timer only wakes the scheduler up, so
 * a restart resumes every task: the first pass after start applies whatever fell due meanwhile, one
 * step at a time, in order, each a compare-and-set transition like any other. Time comes from the
 * injected clock, so tests move time by hand.
 */
import { statementsFor } from '../statements.ts';
import type { Logger } from 'pino';
import type { Db } from '../connection.ts';
import type { GroupCommitWriter } from './writer.ts';
import type { HumanConfig } from '../../lib/human/config.ts';
import { addEvidence } from './evidence.ts';
import { pruneIdempotency } from './idempotency.ts';
import { dueTasks, taskById, transition, type TaskRow } from './tasks.ts';
import { definition } from '../../lib/human/capabilities.ts';
import { SANDBOX_CONFIDENCE } from '../../lib/human/sandbox.ts';
import { dueEvent, nextCheckAt } from '../../lib/human/schedule.ts';
import type { TaskEvent } from '../../lib/human/states.ts';
import { syntheticPhoto } from '../../lib/human/synthetic-photo.ts';

/**
 * What the scheduler uses of the human service. service.ts builds the service and passes it in; the
 * scheduler does not import service.ts back, so the two do not form an import cycle.
 */
export interface SchedulerHost {
  db: Db;
  clock: () => number;
  log: Pick<Logger, 'error' | 'warn'>;
  config: HumanConfig;
  writer: GroupCommitWriter;
  /** Reports an outage of the database (full, read-only) as its state, once: true when `err` was one (app.ts). */
  outage?: (err: unknown) => boolean;
}

const BATCH = 200;
const PRUNE_EVERY_MS = 10 * 60_000;

const statements = statementsFor((db) => ({
  rearm: db.prepare('UPDATE human_tasks SET next_check_at = ? WHERE id = ? AND version = ?'),
  city: db.prepare('SELECT latitude, longitude FROM human_cities WHERE country_iso = ? AND city_slug = ?'),
}));

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private stopped = true;
  private lastPrune = 0;

  constructor(private readonly svc: SchedulerHost) {}

  // Prepared on first use, once per connection (db/statements.ts): the constructor may run before the tables exist.
  private get sql() {
    return statements(this.svc.db);
  }

  start(): void {
    this.stopped = false;
    // The timer skips a beat while a pass is running or queued, so passes never pile up.
    this.timer = setInterval(() => this.queued === 0 && void this.tick(), this.svc.config.tickMs);
    this.timer.unref();
    void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /**
   * One pass that starts after any pass already running (so it sees the clock as it is now), resolving
   * with the number of transitions it applied. Errors are logged, never thrown to the timer.
   */
  tick(): Promise<number> {
    this.queued++;
    const pass = this.chain
      .then(() => this.runDue())
      .catch((err: unknown) => {
        if (!this.stopped && !this.svc.outage?.(err)) this.svc.log.error({ err }, 'human scheduler pass failed');
        return 0;
      })
      .finally(() => {
        this.queued--;
      });
    this.chain = pass;
    return pass;
  }

  /** Applies every event due now, repeating while steps keep falling due (catch-up after downtime). */
  async runDue(): Promise<number> {
    const { db } = this.svc;
    let applied = 0;
    for (let round = 0; round < 1000 && !this.stopped; round++) {
      const now = this.svc.clock();
      const due = dueTasks(db, now, BATCH);
      if (due.length === 0) break;
      const results = await Promise.allSettled(
        due.map((task) => this.svc.writer.submit(() => this.step(task.id, now))),
      );
      let progressed = 0;
      for (const r of results) {
        if (r.status === 'fulfilled' && r.value) progressed++;
        if (r.status === 'rejected' && !this.stopped && !this.svc.outage?.(r.reason))
          this.svc.log.warn({ err: r.reason }, 'human scheduler could not move a task');
      }
      applied += progressed;
      if (progressed === 0 && due.length < BATCH) break;
    }
    const now = this.svc.clock();
    if (!this.stopped && now - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = now;
      await this.svc.writer.submit(() => pruneIdempotency(db, now));
    }
    return applied;
  }

  /** Inside the writer's transaction: the task as it is now, and its due event if still due. */
  private step(taskId: number, now: number): boolean {
    const { db, config } = this.svc;
    const task = taskById(db, taskId)!;
    const event = dueEvent(task, now, config.sandboxDelayMs);
    if (!event) {
      // Nothing due after all (an earlier step of this pass moved it): just re-arm its check.
      this.sql.rearm.run(nextCheckAt(task, config.sandboxDelayMs), task.id, task.version);
      return false;
    }
    this.apply(task, event, now);
    return true;
  }

  private apply(task: TaskRow, event: TaskEvent, now: number): void {
    const { db, config } = this.svc;
    const actor = task.environment === 'test' && event !== 'expire' ? 'sandbox' : 'scheduler';
    const opts = { now, actor, delayMs: config.sandboxDelayMs };
    if (task.environment === 'test' && event === 'deliver') {
      const low = task.sandbox_plan === 'low_confidence';
      const answer = definition(task.capability)!.sandboxAnswer(low);
      transition(db, task, event, {
        ...opts,
        set: {
          answer: JSON.stringify(answer),
          confidence_bps: low ? SANDBOX_CONFIDENCE.low : SANDBOX_CONFIDENCE.normal,
        },
      });
      const city = this.sql.city.get(task.country_iso, task.city_slug) as
        { latitude: number; longitude: number } | undefined;
      addEvidence(
        db,
        task.id,
        {
          kind: 'photo',
          file: { bytes: syntheticPhoto(), mediaType: 'image/png', filename: 'sandbox.png' },
          captured_at: now,
          captured_source: 'synthetic',
          latitude: city?.latitude ?? null,
          longitude: city?.longitude ?? null,
          accuracy_m: city ? 25 : null,
          position_source: city ? 'synthetic' : null,
          synthetic: true,
        },
        now,
      );
      addEvidence(
        db,
        task.id,
        { kind: 'note', note: 'Synthetic evidence from the sandbox: no person was sent.', synthetic: true },
        now,
      );
      return;
    }
    const set =
      task.environment === 'test' && event === 'cannot_do'
        ? { failure_reason: 'Sandbox: the person could not do it (plan fail).' }
        : event === 'resolve_stands'
          ? { resolution: 'answer_stands' as const, resolution_note: 'Sandbox: resolved automatically.' }
          : event === 'resolve_refund'
            ? { resolution: 'refunded' as const, resolution_note: 'Sandbox: resolved automatically.' }
            : undefined;
    transition(db, task, event, { ...opts, ...(set ? { set } : {}) });
  }
}
