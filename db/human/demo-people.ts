/**
 * The demo's verified people (fixtures/human/demo-people.json): accounts made without a password,
 * verified for their cities and capabilities and put on duty, so that a demo database's coverage and
 * quotes say someone is available where the catalogue says a city is live (issue 26: the demo listed
 * 8 live cities and 0 verified people, so every live order was held for nobody). Loaded at first
 * start (DEMO=on) and by `demo`; loading again changes nothing for people who exist already.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount, findAccount } from '../accounts.ts';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import { setDuty, verifyWorker } from './workers.ts';

export const DEMO_PEOPLE = join(import.meta.dirname, '..', '..', 'fixtures', 'human', 'demo-people.json');

interface DemoPerson {
  email: string;
  areas: string[];
  capabilities: string[] | null;
}

const statements = statementsFor((db) => ({
  count: db.prepare('SELECT count(*) FROM human_workers').pluck(),
}));

/** True until someone has been verified: app start (DEMO=on) then loads the demo people. */
export const hasNoPeople = (db: Db) => (statements(db).count.get() as number) === 0;

/** Makes, verifies and puts on duty the demo people who do not exist yet; returns how many it made. */
export function loadDemoPeople(db: Db, now: number, path = DEMO_PEOPLE): number {
  const { people } = JSON.parse(readFileSync(path, 'utf8')) as { people: DemoPerson[] };
  let made = 0;
  db.transaction(() => {
    for (const p of people) {
      if (findAccount(db, p.email)) continue;
      const account = createAccount(db, p.email, now);
      const areas = p.areas.map((a) => ({ country_iso: a.split('/')[0]!, city_slug: a.split('/')[1]! }));
      verifyWorker(db, account.id, areas, now, 'demo person (fixtures/human/demo-people.json)', p.capabilities);
      setDuty(db, account.id, true, null);
      made++;
    }
  }).immediate();
  return made;
}
