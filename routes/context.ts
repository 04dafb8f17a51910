/**
 * What every route module gets: the database, the injected clock, the logger, the shared limiter and
 * the write-behind. Built once in app.ts; tests build it with their own clock.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/connection.ts';
import type { WriteBehind } from '../db/write-behind.ts';
import type { KeyRow } from '../db/accounts.ts';
import type { Config } from '../lib/config.ts';
import type { RateLimiter } from '../lib/rate-limit.ts';

export interface AppContext {
  config: Config;
  db: Db;
  clock: () => number;
  log: Logger;
  limiter: RateLimiter;
  writeBehind: WriteBehind;
  lookupKey: (hash: string) => KeyRow | undefined;
  activePlan: (accountId: number, now: number) => 'pro' | null;
}
