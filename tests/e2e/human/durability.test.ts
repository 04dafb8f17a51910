/**
 * Every order acknowledged with a 201 is in the database file, even when the server is killed
 * (SIGKILL, no shutdown) while other orders are still in flight; and the ledger is sound afterwards.
 * (A power cut cannot be simulated here: that part rests on synchronous=FULL at each order commit,
 * which tests/db/human-writer.test.ts checks.)
 */
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createAccount, createKey } from '../../../db/accounts.ts';
import { openDatabase } from '../../../db/connection.ts';
import { DEMO_CATALOGUE, loadCatalogue } from '../../../db/human/catalogue.ts';
import { loadDemoPeople } from '../../../db/human/demo-people.ts';
import { ledgerViolations } from '../../../db/human/invariants.ts';
import { credit } from '../../../db/human/ledger.ts';
import { migrate } from '../../../db/migrate.ts';
import { verifyOrder } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'trio-crash-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('orders acknowledged before a SIGKILL are all in the file; the rest are not half-written', async () => {
  const path = join(dir, 'trio.sqlite');
  const setup = openDatabase(path);
  migrate(setup);
  loadCatalogue(setup, DEMO_CATALOGUE);
  loadDemoPeople(setup, Date.now()); // someone on duty in Paris: live orders are taken
  const account = createAccount(setup, 'crash@example.org', Date.now());
  const key = createKey(
    setup,
    { accountId: account.id, service: 'human', name: 'k', environment: 'live' },
    Date.now(),
  ).key;
  setup.transaction(() => credit(setup, account.id, 10_000_000, 'top-up', Date.now())).immediate();
  setup.close();

  const child = fork(join(import.meta.dirname, 'crash-server.ts'), [path], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m) => resolve((m as { port: number }).port)),
  );
  const acknowledged: string[] = [];
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/human/v1/tasks`, {
          method: 'POST',
          body: JSON.stringify(verifyOrder()),
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
        });
        const body = (await res.json()) as { data: { ref: string } };
        if (res.status === 201) acknowledged.push(body.data.ref);
      } catch {
        return; // the server is gone
      }
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  stop = true;
  await once(child, 'exit');
  await Promise.all(workers);

  const db = openDatabase(path);
  try {
    const stored = new Set(db.prepare('SELECT ref FROM human_tasks').pluck().all() as string[]);
    const missing = acknowledged.filter((ref) => !stored.has(ref));
    assert.deepEqual(missing, [], `${missing.length} acknowledged orders missing of ${acknowledged.length}`);
    assert.ok(stored.size >= acknowledged.length);
    assert.deepEqual(ledgerViolations(db), [], 'every stored order has its hold, nothing half-written');
  } finally {
    db.close();
  }
});
