/**
 * The paging cursor is a keyset position, not an offset: walking a search page by page while calls are
 * imported and withdrawn between pages neither repeats a call nor skips one that was there all along,
 * for every sort, with and without text. (An offset cursor fails this: a withdrawal before the cursor
 * skips a call, an insertion before it repeats one.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { importFundingText } from '../../../db/funding/import.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let server: TestServer;
before(async () => {
  // No page cache: every page is computed from the corpus as it is at that moment.
  // The trap fixtures: a corpus small enough that a walk of pages of two reaches its end.
  server = await startTestServer({ env: { SEARCH_CACHE_ENTRIES: '0' }, inProcess: true, fundingCorpus: 'traps' });
});
after(() => server.cleanup());

const FIXTURE = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', '..', 'fixtures', 'funding', 'bdns', 'convocatoria-916318.json'),
    'utf8',
  ),
) as Record<string, unknown>;
let nextBdns = 990_001;

/** Imports a new BDNS call (real detail format) about ayudas, with the given deadline and publication day. */
function importCall(deadline: string, published: string): string {
  const code = String(nextBdns++);
  const detail = {
    ...FIXTURE,
    id: Number(code),
    codigoBDNS: code,
    fechaRecepcion: published,
    fechaFinSolicitud: deadline,
    descripcion: `Ayudas de prueba ${code} para la eficiencia energética`,
  };
  importFundingText(server.app.db, 'bdns', `bdns-${code}.json`, JSON.stringify(detail), server.clock.ms);
  return `bdns:${code}`;
}

/** Withdraws a call the way the personal-data rules do: it stays stored, flagged, and leaves the index. */
const withdraw = (id: string) =>
  server.app.db.prepare('UPDATE funding_calls SET personal_data = 1 WHERE id = ?').run(id);

interface Call {
  id: string;
  deadline: string | null;
  published_on: string | null;
}

async function page(query: string, cursor: string | null): Promise<{ calls: Call[]; next: string | null }> {
  server.clock.advance(1_100);
  const res = await server.get(`/funding/v1/search?${query}${cursor ? `&cursor=${cursor}` : ''}`);
  assert.equal(res.status, 200, res.text);
  return { calls: res.json.data, next: res.json.meta.next_cursor };
}

async function everything(query: string): Promise<Call[]> {
  return (await page(`${query}&per_page=100`, null)).calls;
}

const walks: Array<[string, string]> = [
  ['sort=deadline', 'sort=deadline'],
  ['sort=-deadline', 'sort=-deadline'],
  ['sort=published (default without q)', ''],
  [
    'q, relevance (three tiers: as typed in a title, glossary forms there, the rest)',
    `q=${encodeURIComponent('ayudas OR energy OR research')}`,
  ],
  [
    'q with sort=deadline and status',
    `q=${encodeURIComponent('ayudas OR energy OR research')}&sort=deadline&status=open`,
  ],
];

for (const [name, query] of walks) {
  test(`a walk stays exact while calls come and go: ${name}`, async () => {
    const before = (await everything(query)).map((c) => c.id);
    assert.ok(before.length >= 6, `${name}: enough calls to walk (${before.length})`);
    const seen: string[] = [];
    const withdrawn = new Set<string>();
    const inserted: string[] = [];
    let cursor: string | null = null;
    let step = 0;
    do {
      const { calls, next }: { calls: Call[]; next: string | null } = await page(
        `${query}${query ? '&' : ''}per_page=2`,
        cursor,
      );
      seen.push(...calls.map((c) => c.id));
      cursor = next;
      // Between pages: withdraw one call already shown and one still ahead, import one that sorts
      // early and one that sorts late.
      step++;
      const shown = seen[seen.length - 1];
      const ahead = before.find((id) => !seen.includes(id) && !withdrawn.has(id));
      if (step % 2 === 1) {
        if (shown && !withdrawn.has(shown)) {
          withdraw(shown);
          withdrawn.add(shown);
        }
        if (ahead) {
          withdraw(ahead);
          withdrawn.add(ahead);
        }
      } else {
        inserted.push(importCall('2026-11-30', '2026-11-20'), importCall('2027-06-30', '2026-10-01'));
      }
    } while (cursor !== null && step < 200);

    assert.equal(new Set(seen).size, seen.length, `${name}: no call twice: ${seen.join(' ')}`);
    const stayed = before.filter((id) => !withdrawn.has(id));
    for (const id of stayed) assert.ok(seen.includes(id), `${name}: ${id}, there all along, was reached`);
    // The walk is in the search's order: it is the order of the final corpus, less what left mid-walk.
    const after = (await everything(query)).map((c) => c.id);
    const shownAndPresent = seen.filter((id) => after.includes(id));
    assert.deepEqual(
      shownAndPresent,
      after.filter((id) => shownAndPresent.includes(id)),
      `${name}: in order`,
    );
    for (const id of withdrawn)
      server.app.db.prepare('UPDATE funding_calls SET personal_data = 0 WHERE id = ?').run(id);
    for (const id of inserted) server.app.db.prepare('DELETE FROM funding_calls WHERE id = ?').run(id);
  });
}

test('numbered pages and the cursor walk agree on a quiet corpus', async () => {
  for (const query of ['sort=deadline', `q=${encodeURIComponent('ayudas OR energy')}`]) {
    const all = (await everything(query)).map((c) => c.id);
    const byPage: string[] = [];
    for (let p = 1; p <= Math.ceil(all.length / 3); p++)
      byPage.push(...(await page(`${query}&per_page=3&page=${p}`, null)).calls.map((c) => c.id));
    assert.deepEqual(byPage, all, query);
  }
});
