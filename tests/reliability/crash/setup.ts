/**
 * The crash test's callers, made in the database file before the server first starts: accounts and
 * keys for the three APIs, and prepaid balances.
 *
 * Why so many keys: the server under test is the real entry point, so its limits are the real ones
 * (120 calls a minute per human key, 120 a minute per funding account). Spreading the load over
 * several keys keeps most calls acknowledged instead of 429. One human account is "poor" on purpose:
 * its balance covers only a few orders, so orders there are refused with 402 at the edge of zero,
 * which is where `available ≥ 0` can break.
 */
import { createAccount, createKey } from '../../../db/accounts.ts';
import { openDatabase } from '../../../db/connection.ts';
import { credit } from '../../../db/human/ledger.ts';
import { migrate } from '../../../db/migrate.ts';

export interface HumanCaller {
  key: string;
  accountId: number;
}
export interface CountedCaller {
  key: string;
  bucket: string;
}

export interface Callers {
  /** Live keys with tasks:read and tasks:write: orders and cancels. */
  orderKeys: HumanCaller[];
  /** Live tasks:read keys of the first (rich) account: reads of its tasks and balance. */
  humanReadKeys: HumanCaller[];
  impactKeys: CountedCaller[];
  fundingKeys: CountedCaller[];
  richAccountId: number;
  poorAccountId: number;
}

export const RICH_BALANCE_CENTS = 500_000_000;
export const POOR_BALANCE_CENTS = 20_000;

export function prepareCallers(databasePath: string, now: number): Callers {
  const db = openDatabase(databasePath);
  try {
    migrate(db, undefined, now);
    let n = 0;
    const account = () => createAccount(db, `crash${++n}@example.org`, now).id;
    const key = (accountId: number, service: 'human' | 'impact' | 'funding', scopes?: string[]) =>
      createKey(
        db,
        {
          accountId,
          service,
          name: `crash ${service} ${n}`,
          environment: service === 'human' ? 'live' : null,
          ...(scopes ? { scopes } : {}),
        },
        now,
      );

    const rich = account();
    const poor = account();
    db.transaction(() => {
      credit(db, rich, RICH_BALANCE_CENTS, 'crash test top-up', now);
      credit(db, poor, POOR_BALANCE_CENTS, 'crash test top-up', now);
    }).immediate();
    const orderKeys = [
      ...Array.from({ length: 18 }, () => ({ key: key(rich, 'human').key, accountId: rich })),
      ...Array.from({ length: 4 }, () => ({ key: key(poor, 'human').key, accountId: poor })),
    ];
    const humanReadKeys = Array.from({ length: 4 }, () => ({
      key: key(rich, 'human', ['tasks:read']).key,
      accountId: rich,
    }));
    const impactKeys = Array.from({ length: 3 }, () => {
      const made = key(account(), 'impact');
      return { key: made.key, bucket: `impact:key:${made.row.id}` };
    });
    // Funding keys are counted per account (routes/funding/access.ts): one key per account.
    const fundingKeys = Array.from({ length: 3 }, () => {
      const owner = account();
      return { key: key(owner, 'funding').key, bucket: `funding:account:${owner}` };
    });
    return { orderKeys, humanReadKeys, impactKeys, fundingKeys, richAccountId: rich, poorAccountId: poor };
  } finally {
    db.close();
  }
}
