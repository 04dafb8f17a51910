/**
 * The human service's settings, from the environment (documented in .env.example and docs/human.md):
 *
 * - SANDBOX_DELAY_MS (default 2000, 0–3,600,000): each step of a sandbox task (lib/human/sandbox.ts).
 * - HUMAN_SCHEDULER_TICK_MS (default: half the delay, clamped to 20–1000): how often the scheduler
 *   looks for tasks that fell due. A sandbox step can be late by up to one tick.
 * - HUMAN_DURABLE_COMMIT (default on): fsync every write of the service at commit (group commit,
 *   db/human/writer.ts). Off trades power-cut durability for speed (a process crash still loses nothing).
 */
import { integer } from '../env-integer.ts';
export interface HumanConfig {
  sandboxDelayMs: number;
  tickMs: number;
  durable: boolean;
}

export function readHumanConfig(env: Record<string, string | undefined>): HumanConfig {
  const sandboxDelayMs = integer(env.SANDBOX_DELAY_MS, 2000, 'SANDBOX_DELAY_MS', 0, 3_600_000);
  const tickMs = integer(
    env.HUMAN_SCHEDULER_TICK_MS,
    Math.min(1000, Math.max(20, Math.floor(sandboxDelayMs / 2))),
    'HUMAN_SCHEDULER_TICK_MS',
    5,
    60_000,
  );
  const flag = (env.HUMAN_DURABLE_COMMIT ?? 'on').toLowerCase();
  if (!['on', 'off', '1', '0', 'true', 'false', 'yes', 'no', ''].includes(flag))
    throw new Error('HUMAN_DURABLE_COMMIT must be on or off');
  return { sandboxDelayMs, tickMs, durable: !['off', '0', 'false', 'no'].includes(flag) };
}
