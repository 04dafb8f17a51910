/** Accounts and keys for end-to-end tests, made through the same db functions the CLI uses. */
import { createAccount, createKey, type Environment, type Service } from '../../db/accounts.ts';
import type { Db } from '../../db/connection.ts';

let counter = 0;

export function accountWithKey(
  db: Db,
  service: Service,
  now: number,
  extra: { environment?: Environment; scopes?: string[] } = {},
) {
  const account = createAccount(db, `user${++counter}-${process.pid}@example.org`, now);
  const { key, row } = createKey(db, { accountId: account.id, service, name: 'test key', ...extra }, now);
  return { account, key, row };
}
