/**
 * funding sync end to end: the real sync (db/funding/sync/run.ts) against a real local HTTP server
 * serving the sources' real records (tests/helpers/funding-sources.ts), into a real SQLite file.
 * The clock is 2026-01-08, inside the real records' time: a first run reads the 31 BOE sumarios and
 * the BDNS windows of the month before, when the real extracts of December 2025 were published.
 * Each fault the issue names is played by that server; what is stored is checked after each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../db/connection.ts';
import { importFundingText } from '../../db/funding/import.ts';
import { runFundingSync, type SyncSummary } from '../../db/funding/sync/run.ts';
import { acquireSyncLock } from '../../db/funding/sync/state.ts';
import { cordisBatches } from '../../db/funding/sync/cordis.ts';
import { parseCordis } from '../../lib/funding/parse-cordis.ts';
import { sediaSourceId } from '../../lib/funding/parse-eu.ts';
import type { SourceCode } from '../../lib/funding/records.ts';
import { addDays } from '../../lib/funding/zoned-time.ts';
import { syncHarness } from '../helpers/funding-sync-harness.ts';

const TODAY = '2026-01-08';
const NOW = Date.parse(`${TODAY}T10:00:00Z`);
const FIRST_DAY = addDays(TODAY, -30);
const DAYS = Array.from({ length: 31 }, (_, i) => addDays(FIRST_DAY, i));
const ymd = (d: string) => d.replaceAll('-', '');
const DATA = join(import.meta.dirname, '..', '..', 'data', 'funding');
const readData = (p: string) => readFileSync(join(DATA, p), 'utf8');

interface RealDetail {
  codigoBDNS: string;
  fechaRecepcion: string;
  anuncios?: Array<{ cve: string | null; datPublicacion: string }> | null;
}
const DETAILS = JSON.parse(readData('bdns/convocatorias-detalle-20250116-20260715.json')) as RealDetail[];
/** The BOE notices the real details mirror, published by `last`: [BOE id, day, BDNS id]. */
const mirroredNotices = (last: string, details = DETAILS) =>
  details.flatMap((d) =>
    (d.anuncios ?? [])
      .filter((a) => a.cve?.startsWith('BOE-') && a.datPublicacion <= last)
      .map((a) => [a.cve!, a.datPublicacion, d.codigoBDNS] as const),
  );
const receivedBetween = (a: string, b: string) =>
  DETAILS.filter((d) => d.fechaRecepcion >= a && d.fechaRecepcion <= b).map((d) => d.codigoBDNS);

const h = syncHarness('trio-sync-', NOW);
const freshDb = () => h.freshDb();

const config = (env: Record<string, string> = {}) =>
  h.config({
    FUNDING_SYNC_RETRY_MAX_MS: '3000',
    FUNDING_SYNC_TIMEOUT_MS: '1000',
    FUNDING_SYNC_RETRIES: '2',
    FUNDING_SYNC_PAGE_SIZE: '2',
    FUNDING_SYNC_BATCH_ROWS: '40', // the CORDIS export and the EU bulk file in several batches
    ...env,
  });

const sync = (
  db: Db,
  sources?: SourceCode[],
  env?: Record<string, string>,
  since?: string,
  now = NOW,
  wallClock?: () => number,
) =>
  runFundingSync(db, {
    config: config(env),
    ...(sources ? { sources } : {}),
    since: since ?? null,
    now: () => now,
    version: '0.1.0',
    ...(wallClock ? { wallClock } : {}),
  });

const bySource = (s: SyncSummary) => Object.fromEntries(s.sources.map((x) => [x.source, x]));

/** Every stored fact of the corpus, without the times it was written. */
function snapshot(db: Db) {
  return {
    calls: db
      .prepare(
        'SELECT id, content_hash, deadline, deadline_time, personal_data, language FROM funding_calls ORDER BY id',
      )
      .all(),
    notices: db
      .prepare('SELECT source_id, bdns_id, published_on, content_hash FROM funding_notices ORDER BY source_id')
      .all(),
    projects: db.prepare('SELECT source_id, coordinator, content_hash FROM funding_projects ORDER BY source_id').all(),
  };
}

test('a first sync stores every source; a second changes nothing and fetches only what may have changed', async () => {
  const db = freshDb();
  const start = h.fake.requests.length;
  const first = bySource(await sync(db));
  const firstRequests = h.fake.requests.slice(start);
  for (const s of ['eu', 'cordis', 'boe', 'bdns']) assert.equal(first[s]!.status, 'ok', `${s}: ${first[s]!.error}`);

  // EU: the 11 real SEDIA hits over 6 pages of 2; the two SUSA cascade offers sharing their parent's
  // identifier stay two calls; the `bg` hits with English metadata are English.
  const hits = [
    'eu/sedia-search-subvenia-page-sample.json',
    'eu/sedia-search-fundhunt-sample.json',
    'eu/sedia-search-fundhunt-cascade-sample.json',
  ].flatMap((f) => (JSON.parse(readData(f)) as { results: unknown[] }).results);
  assert.deepEqual(
    db.prepare("SELECT source_id FROM funding_calls WHERE source = 'eu' ORDER BY source_id").pluck().all(),
    hits.map((r) => sediaSourceId(r)!).sort(),
  );
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'eu'").pluck().get(), 11);
  assert.equal(
    db.prepare("SELECT language FROM funding_calls WHERE id = 'eu:SC1-PHE-CORONAVIRUS-2020-2D'").pluck().get(),
    'en',
  );
  const euPages = firstRequests.filter((r) => r.key.startsWith('eu-search'));
  assert.deepEqual(
    euPages.map((r) => r.key),
    [1, 2, 3, 4, 5, 6].map((p) => `eu-search:${p}`),
  );
  assert.ok(euPages.every((r) => r.method === 'POST' && r.headers['content-type']!.startsWith('multipart/form-data')));

  // BOE: the 31 sumarios of the backfill; the days with an issue here are the days the real
  // extracts were published; each grant item's own document was fetched.
  assert.deepEqual(
    firstRequests.filter((r) => r.key.startsWith('boe:')).map((r) => r.key),
    DAYS.map((d) => `boe:${ymd(d)}`),
  );
  const notices = mirroredNotices(TODAY);
  assert.deepEqual(
    firstRequests
      .filter((r) => r.key.startsWith('boe-doc:'))
      .map((r) => r.key.slice(8))
      .sort(),
    notices.map(([id]) => id).sort(),
  );
  assert.equal(first.boe!.skipped, 31 - new Set(notices.map(([, day]) => day)).size, 'days without an issue');
  // Each extract is linked to its BDNS call by the number only its document holds, and each BOE call
  // was folded into that BDNS call: none is served twice. The BDNS details (captured in July 2026)
  // also list a later notice, the correction BOE-B-2026-441 of 10 January: stored as theirs too.
  const received = DETAILS.filter((d) => receivedBetween(FIRST_DAY, TODAY).includes(d.codigoBDNS));
  const linked = new Map([...notices, ...mirroredNotices('9999-12-31', received)].map(([id, , bdns]) => [id, bdns]));
  assert.deepEqual(
    db.prepare('SELECT source_id, bdns_id FROM funding_notices ORDER BY 1').all(),
    [...linked].sort().map(([source_id, bdns_id]) => ({ source_id, bdns_id })),
  );
  assert.ok(linked.has('BOE-B-2026-441') && notices.length === linked.size - 1);
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'boe'").pluck().get(), 0);
  // 873847's "45 días hábiles … desde … la publicación del extracto en el BOE", from the extract's day.
  const call = db.prepare("SELECT deadline, deadline_source FROM funding_calls WHERE id = 'bdns:873847'").get() as {
    deadline: string;
    deadline_source: string;
  };
  assert.equal(call.deadline, '2026-02-18');
  assert.equal(JSON.parse(call.deadline_source).publication, 'BOE-B-2025-46003');

  // The same documents through `funding import`'s entry point, file by file (a sumario, then its items'
  // documents), give the same rows: one code path, whichever way the documents arrive.
  const ref = freshDb();
  importFundingText(ref, 'cordis', 'x', readData('cordis/project.csv'), NOW);
  for (const r of firstRequests.filter((x) => x.key.startsWith('boe:'))) {
    const res = await fetch(h.fake.url + r.url);
    if (res.status !== 200) continue;
    const text = await res.text();
    importFundingText(ref, 'boe', r.url, text, NOW);
    for (const url of [...text.matchAll(/"url_xml":"([^"]+)"/g)].map((m) => m[1]!))
      importFundingText(ref, 'boe', url, await (await fetch(url)).text(), NOW);
  }
  const details = firstRequests.filter((r) => r.key.startsWith('bdns-detail'));
  for (const r of details) importFundingText(ref, 'bdns', r.url, await (await fetch(h.fake.url + r.url)).text(), NOW);
  assert.deepEqual(snapshot(db).notices, snapshot(ref).notices);
  assert.deepEqual(snapshot(db).projects, snapshot(ref).projects);
  const nonEu = (rows: unknown[]) => (rows as Array<{ id: string }>).filter((r) => !r.id.startsWith('eu:'));
  assert.deepEqual(nonEu(snapshot(db).calls), nonEu(snapshot(ref).calls));

  // BDNS: one detail request per call received in the backfill, over several list pages.
  assert.deepEqual(details.map((r) => r.key.split(':')[1]).sort(), receivedBetween(FIRST_DAY, TODAY).sort());
  assert.ok(firstRequests.filter((r) => r.key.startsWith('bdns-list')).length >= 5, 'a page per 7-day window at least');
  // CORDIS: the real export unpacked and imported in batches of 40 projects: 100, in three.
  assert.equal(first.cordis!.inserted, 100);
  assert.equal(db.prepare("SELECT count(*) FROM funding_imports WHERE source = 'cordis'").pluck().get(), 3);

  // Polite: every request names trio and the operator's contact.
  assert.ok(
    firstRequests.every((r) => /^trio\/0\.1\.0 \(.*funding-ops@example\.org\)$/.test(r.headers['user-agent'] ?? '')),
  );

  // Again: nothing changes, not even the import log; CORDIS is asked conditionally (304).
  const before = snapshot(db);
  const imports = db.prepare('SELECT count(*) FROM funding_imports').pluck().get();
  const mid = h.fake.requests.length;
  const second = bySource(await sync(db));
  assert.deepEqual(snapshot(db), before);
  assert.equal(db.prepare('SELECT count(*) FROM funding_imports').pluck().get(), imports);
  for (const s of Object.values(second)) assert.deepEqual([s.status, s.inserted, s.updated], ['ok', 0, 0], s.source);
  const again = h.fake.requests.slice(mid);
  assert.equal(again.filter((r) => r.key.startsWith('bdns-detail')).length, 0, 'no detail read twice at once');
  assert.deepEqual(
    again.filter((r) => r.key.startsWith('boe')).map((r) => r.key),
    [`boe:${ymd(TODAY)}`],
    'only today is read again (an unchanged sumario: no document asked)',
  );
  const cordis = again.find((r) => r.key === 'cordis')!;
  assert.equal(cordis.headers['if-none-match'], '"cordis-1"');
  assert.equal(cordis.headers['if-modified-since'], 'Mon, 02 Nov 2026 08:00:00 GMT');
  assert.equal(second.cordis!.skipped, 1);
  db.close();
  ref.close();
});

test('a 429 with Retry-After is waited out, then the day is stored', async () => {
  const db = freshDb();
  const key = 'boe:20251220';
  h.fake.fail(key, { status: 429, retryAfter: '1' });
  const mark = h.fake.requests.length;
  const s = bySource(await sync(db, ['boe']));
  assert.equal(s.boe!.status, 'ok');
  const hits = h.fake.requests.slice(mark).filter((r) => r.key === key);
  assert.equal(hits.length, 2);
  assert.ok(hits[1]!.at - hits[0]!.at >= 950, `waited ${hits[1]!.at - hits[0]!.at} ms for Retry-After: 1`);
  assert.deepEqual(
    db.prepare('SELECT source_id FROM funding_notices WHERE published_on = ? ORDER BY 1').pluck().all('2025-12-20'),
    ['BOE-B-2025-47161', 'BOE-B-2025-47162'],
  );
  db.close();
});

test('a 503 then success: the page is fetched again and nothing falls back', async () => {
  const db = freshDb();
  h.fake.fail('eu-search:2', { status: 503 });
  const mark = h.fake.requests.length;
  const s = bySource(await sync(db, ['eu']));
  assert.equal(s.eu!.status, 'ok');
  assert.deepEqual(
    h.fake.requests.slice(mark).map((r) => r.key),
    ['eu-search:1', 'eu-search:2', 'eu-search:2', 'eu-search:3', 'eu-search:4', 'eu-search:5', 'eu-search:6'],
  );
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'eu'").pluck().get(), 11);
  db.close();
});

test('a slow answer past the timeout is abandoned and asked again', async () => {
  const db = freshDb();
  h.fake.fail('bdns-detail:876660', { delayMs: 8000 });
  const mark = h.fake.requests.length;
  // 2 s: far above a local answer even on a loaded machine, far below the 8 s one.
  const s = bySource(await sync(db, ['bdns'], { FUNDING_SYNC_TIMEOUT_MS: '2000' }));
  assert.equal(s.bdns!.status, 'ok');
  assert.equal(h.fake.requests.slice(mark).filter((r) => r.key === 'bdns-detail:876660').length, 2);
  assert.deepEqual(
    db.prepare("SELECT deadline, deadline_time FROM funding_calls WHERE id = 'bdns:876660'").get(),
    { deadline: '2026-02-10', deadline_time: '12:00' },
    'the detail (with its deadline and the hour only its textFin states) is stored',
  );
  db.close();
});

test('a truncated body is a network error: retried, and the archive is stored whole', async () => {
  const db = freshDb();
  h.fake.fail('cordis', { truncate: true });
  const mark = h.fake.requests.length;
  const s = bySource(await sync(db, ['cordis']));
  assert.equal(s.cordis!.status, 'ok');
  assert.equal(h.fake.requests.slice(mark).filter((r) => r.key === 'cordis').length, 2);
  assert.equal(db.prepare('SELECT count(*) FROM funding_projects').pluck().get(), 100);
  db.close();
});

test('a truncated body every time fails the source, stores nothing of it, and the others go on', async () => {
  const db = freshDb();
  h.fake.fail('cordis', { truncate: true }, { truncate: true }, { truncate: true });
  const s = bySource(await sync(db, ['cordis', 'eu']));
  assert.equal(s.cordis!.status, 'failed');
  assert.match(
    s.cordis!.error!,
    /^CORDIS export \(http:\/\/127\.0\.0\.1:\d+\/cordis\/cordis-HORIZONprojects-csv\.zip\): network error.*after 3 attempts/,
  );
  assert.equal(s.eu!.status, 'ok');
  assert.equal(db.prepare('SELECT count(*) FROM funding_projects').pluck().get(), 0);
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE source = 'eu'").pluck().get(), 11);
  db.close();
});

test('a broken sumario stops BOE at that day, naming the day and its URL; the next run resumes there and ends where a clean run does', async () => {
  const db = freshDb();
  const bad = 'boe:20251220';
  h.fake.fail(bad, { body: '{"status":{"code":"200","text":"ok"},"data":{"sumario":{"metadatos":' });
  const s1 = bySource(await sync(db, ['boe', 'bdns']));
  assert.equal(s1.boe!.status, 'failed');
  assert.match(
    s1.boe!.error!,
    /^BOE sumario of 2025-12-20 \(http:\/\/127\.0\.0\.1:\d+\/boe\/sumario\/20251220\): file: not valid JSON/,
  );
  assert.equal(s1.bdns!.status, 'ok', 'the other source went on');
  // BOE stored the days before it; BDNS's details brought the later extracts as notices of their calls.
  assert.deepEqual(
    db
      .prepare("SELECT DISTINCT published_on FROM funding_notices WHERE published_on < '2025-12-20' ORDER BY 1")
      .pluck()
      .all(),
    ['2025-12-12', '2025-12-16'],
  );
  assert.equal(
    JSON.parse(db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string).day,
    '2025-12-19',
  );
  assert.equal(db.prepare("SELECT consecutive_failures FROM funding_sync_state WHERE source = 'boe'").pluck().get(), 1);

  const mark = h.fake.requests.length;
  const s2 = bySource(await sync(db, ['boe', 'bdns']));
  assert.equal(s2.boe!.status, 'ok');
  assert.equal(
    h.fake.requests.slice(mark).filter((r) => r.key.startsWith('boe:'))[0]!.key,
    bad,
    'resumed at the failed day',
  );
  assert.equal(db.prepare("SELECT consecutive_failures FROM funding_sync_state WHERE source = 'boe'").pluck().get(), 0);
  const clean = freshDb();
  await sync(clean, ['boe', 'bdns']);
  assert.deepEqual(snapshot(db), snapshot(clean));
  db.close();
  clean.close();
});

test("a BOE item document that cannot be had fails its day, naming the item, the day and the document's URL", async () => {
  const db = freshDb();
  h.fake.fail('boe-doc:BOE-B-2025-47162', { status: 500 }, { status: 500 }, { status: 500 });
  const s = bySource(await sync(db, ['boe']));
  assert.equal(s.boe!.status, 'failed');
  assert.match(
    s.boe!.error!,
    /^BOE document BOE-B-2025-47162 of 2025-12-20 \(http:\/\/127\.0\.0\.1:\d+\/boe\/documento\?id=BOE-B-2025-47162\): HTTP 500.*after 3 attempts/,
  );
  // The day is stored with its documents or not at all: its sumario's other item is not either.
  assert.equal(db.prepare("SELECT count(*) FROM funding_notices WHERE published_on = '2025-12-20'").pluck().get(), 0);
  assert.equal(
    JSON.parse(db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string).day,
    '2025-12-19',
  );
  db.close();
});

test('malformed JSON from the search API: the EU falls back to the bulk reference file', async () => {
  const db = freshDb();
  h.fake.fail('eu-search:1', { body: '{"totalResults": 11, "results": [' });
  const mark = h.fake.requests.length;
  const s = bySource(await sync(db, ['eu']));
  assert.equal(s.eu!.status, 'ok');
  assert.match(
    s.eu!.notes.join(' '),
    /EU search page 1 \(http[^)]+\): not valid JSON.*fell back to the bulk reference file/,
  );
  assert.ok(h.fake.requests.slice(mark).some((r) => r.key === 'eu-bulk'));
  // grantsTenders.json: its grants (the tender skipped) with programme names from the file.
  const bulk = JSON.parse(readData('eu/grantsTenders-funding_radar-sample.json')).fundingData.GrantTenderObj as Array<{
    identifier: string;
    type: number;
  }>;
  const grants = [...new Set(bulk.filter((r) => String(r.type) !== '0').map((r) => r.identifier))].sort();
  assert.deepEqual(
    db.prepare("SELECT source_id FROM funding_calls WHERE source = 'eu' ORDER BY 1").pluck().all(),
    grants,
  );

  // The next fallback asks for the bulk file conditionally; a 304 imports nothing.
  h.fake.fail('eu-search:1', { status: 503 }, { status: 503 }, { status: 503 });
  const imports = db.prepare('SELECT count(*) FROM funding_imports').pluck().get();
  const again = h.fake.requests.length;
  const s2 = bySource(await sync(db, ['eu']));
  const bulkRequest = h.fake.requests.slice(again).find((r) => r.key === 'eu-bulk')!;
  assert.equal(bulkRequest.headers['if-none-match'], '"bulk-1"');
  assert.deepEqual([s2.eu!.status, s2.eu!.skipped, s2.eu!.inserted, s2.eu!.updated], ['ok', 1, 0, 0]);
  assert.equal(db.prepare('SELECT count(*) FROM funding_imports').pluck().get(), imports);
  db.close();
});

test('a BDNS error inside a 200 fails BDNS without storing the call or its fingerprint', async () => {
  const db = freshDb();
  h.fake.fail('bdns-detail:876660', {
    body: '{"codigo":"ERR_MANTENIMIENTO_BBDD","error":"Base de datos en mantenimiento"}',
  });
  const s1 = bySource(await sync(db, ['bdns']));
  assert.equal(s1.bdns!.status, 'failed');
  assert.match(
    s1.bdns!.error!,
    /^BDNS detail of call 876660 \(http[^)]+numConv=876660&vpd=GE\): response: BDNS answered an error: ERR_MANTENIMIENTO_BBDD/,
  );
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE id = 'bdns:876660'").pluck().get(), 0);
  assert.equal(db.prepare("SELECT count(*) FROM funding_sync_items WHERE item_id = '876660'").pluck().get(), 0);
  const s2 = bySource(await sync(db, ['bdns']));
  assert.equal(s2.bdns!.status, 'ok');
  assert.equal(db.prepare("SELECT count(*) FROM funding_calls WHERE id = 'bdns:876660'").pluck().get(), 1);
  db.close();
});

test('an ETag answered with 304 imports nothing; a new export is imported', async () => {
  const db = freshDb();
  await sync(db, ['cordis']);
  const before = snapshot(db);
  const s = bySource(await sync(db, ['cordis']));
  assert.deepEqual([s.cordis!.fetched, s.cordis!.skipped, s.cordis!.inserted, s.cordis!.updated], [0, 1, 0, 0]);
  assert.deepEqual(snapshot(db), before);
  const csv = readData('cordis/project.csv');
  const [id, title] = /\n"(\d+)";"[^"]*";"[^"]*";"([^"]+)"/.exec(csv)!.slice(1) as [string, string];
  h.fake.setCordis(csv.replace(`"${title}"`, `"${title} (revised)"`));
  const s3 = bySource(await sync(db, ['cordis']));
  assert.deepEqual([s3.cordis!.fetched, s3.cordis!.updated], [1, 1]);
  assert.equal(
    db.prepare('SELECT title FROM funding_projects WHERE source_id = ?').pluck().get(id),
    `${title} (revised)`,
  );
  h.fake.setCordis(csv);
  db.close();
});

test('a source that keeps failing is reported run after run; the others go on', async () => {
  const db = freshDb();
  for (let i = 0; i < 2; i++) {
    h.fake.fail('bdns-list:0', { status: 503 }, { status: 503 }, { status: 503 });
    const s = bySource(await sync(db, ['bdns', 'cordis']));
    assert.equal(s.bdns!.status, 'failed');
    assert.match(s.bdns!.error!, /HTTP 503.*after 3 attempts/);
    assert.equal(s.bdns!.consecutive_failures, i + 1);
    assert.equal(s.cordis!.status, 'ok');
  }
  assert.deepEqual(
    db.prepare("SELECT outcome, count(*) AS n FROM funding_sync_runs WHERE source = 'bdns' GROUP BY 1").all(),
    [{ outcome: 'failed', n: 2 }],
  );
  db.close();
});

test('one sync at a time: a held lock makes another sync do nothing', async () => {
  const db = freshDb();
  const lock = acquireSyncLock(db, NOW, 60_000);
  const mark = h.fake.requests.length;
  const s = await sync(db, ['cordis']);
  assert.match(s.locked ?? '', /another funding sync is running/);
  assert.equal(h.fake.requests.length, mark, 'nothing fetched');
  lock.release();
  assert.equal((await sync(db, ['cordis'])).locked, null);
  db.close();
});

test('--since reads BOE from that day again without moving the watermark back', async () => {
  const db = freshDb();
  await sync(db, ['boe']);
  const mark = h.fake.requests.length;
  await sync(db, ['boe'], {}, '2026-01-06');
  assert.deepEqual(
    h.fake.requests.slice(mark).map((r) => r.key),
    // 6 January: its sumario unchanged, so no document is asked again.
    ['boe:20260106', 'boe:20260107', 'boe:20260108'],
  );
  assert.equal(
    JSON.parse(db.prepare("SELECT watermark FROM funding_sync_state WHERE source = 'boe'").pluck().get() as string).day,
    '2026-01-07',
  );
  db.close();
});

test('FUNDING_SYNC_RATE spaces the requests to one host', async () => {
  const db = freshDb();
  const mark = h.fake.requests.length;
  await sync(db, ['eu', 'cordis'], { FUNDING_SYNC_RATE: '5' });
  const at = h.fake.requests.slice(mark).map((r) => r.at);
  assert.equal(at.length, 7, 'six EU pages and the CORDIS export, all on the one test host');
  // Spaced by the client at 200 ms; seen by the server when each body has arrived, so allow for jitter.
  for (let i = 1; i < at.length; i++)
    assert.ok(at[i]! - at[i - 1]! >= 120, `request ${i} came ${at[i]! - at[i - 1]!} ms after the one before`);
  assert.ok(at.at(-1)! - at[0]! >= 6 * 200 - 40, `7 requests over ${at.at(-1)! - at[0]!} ms: at most 5 a second`);
  db.close();
});

test('the run log in the database has the same counts as the summary, failures included', async () => {
  const db = freshDb();
  h.fake.fail('boe:20251224', { body: 'not json' });
  const summary = await sync(db, ['boe', 'cordis']);
  const logged = db
    .prepare(
      'SELECT source, outcome, fetched, inserted, updated, unchanged, withheld, notices, skipped, failed FROM funding_sync_runs ORDER BY id',
    )
    .all();
  assert.deepEqual(
    logged,
    summary.sources.map((s) => ({
      source: s.source,
      outcome: s.status,
      fetched: s.fetched,
      inserted: s.inserted,
      updated: s.updated,
      unchanged: s.unchanged,
      withheld: s.withheld,
      notices: s.notices,
      skipped: s.skipped,
      failed: s.failed,
    })),
  );
  assert.deepEqual(
    summary.sources.map((s) => [s.source, s.status, s.failed]),
    [
      ['cordis', 'ok', 0],
      ['boe', 'failed', 1],
    ],
  );
  db.close();
});

test('a CORDIS export cut into batches is, row for row, the export: quoted line breaks and bare quotes kept', () => {
  // The hand-made fixture: the traps (line breaks inside quotes, bare quotes, organisations) the real
  // 100-row sample lacks; the real sample is cut the same way in the first test.
  const project = readFileSync('fixtures/funding/cordis/project.csv', 'utf8');
  const organization = readFileSync('fixtures/funding/cordis/organization.csv', 'utf8');
  for (const size of [1, 2, 4, 100]) {
    const batches = cordisBatches(project, organization, size);
    assert.equal(batches.length, Math.ceil(6 / size), `size ${size}`);
    const whole = parseCordis({ project, organization });
    const parts = batches.map((b) => parseCordis(b));
    assert.deepEqual(
      parts.flatMap((p) => p.projects),
      whole.projects,
      `size ${size}: same projects`,
    );
    assert.equal(
      parts.reduce((n, p) => n + p.coordinatorsWithheld, 0),
      whole.coordinatorsWithheld,
      `size ${size}: same coordinators withheld`,
    );
  }
});
