/**
 * What the order benchmarks (bench/human.ts, bench/cluster.ts) send: one sandbox order body, and a
 * database made ready to take it (the demo catalogue, an account and its sandbox key).
 */
import { createAccount, createKey } from '../db/accounts.ts';
import type { Db } from '../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../db/human/catalogue.ts';

export const BENCH_ORDER = JSON.stringify({
  capability: 'human.verify',
  spec: { claim: 'The bakery at 12 Rue Oberkampf is open on Sundays', subject: 'Boulangerie Martin' },
  location: { country_iso: 'FR', city_slug: 'paris' },
  max_price_cents: 2000,
});

/** Loads the catalogue and makes a sandbox key; returns the headers an order is sent with. */
export function prepareOrders(db: Db): Record<string, string> {
  loadCatalogue(db, DEMO_CATALOGUE);
  const account = createAccount(db, 'bench@example.org', Date.now());
  const { key } = createKey(
    db,
    { accountId: account.id, service: 'human', name: 'bench', environment: 'test' },
    Date.now(),
  );
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}
