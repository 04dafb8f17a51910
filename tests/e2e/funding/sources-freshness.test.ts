/**
 * Data age that tells the truth (issue 34): GET /funding/v1/sources says when each source's newest
 * record was published, when it was last synced from its publisher and when a file was loaded, three
 * dates never merged; the age counts from the last sync only. Checked over HTTP on the real server,
 * against the records: the database's rows, the search route's newest call, and for BDNS the
 * publisher's own files read here (fechaRecepcion), apart from the importer. The explorer's search
 * page says the snapshot's day, computed from the same records.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { publishedDayWords } from '../../../routes/explore/funding-freshness.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

interface SourceJson {
  code: string;
  records: number;
  newest_published_on: string | null;
  last_sync_at: string | null;
  last_import_at: string | null;
  data_age_seconds: number | null;
}

let server: TestServer;
let loadedAt: number;
before(async () => {
  server = await startTestServer();
  loadedAt = server.clock.now(); // the demo is loaded under the test clock's now
});
after(() => server.cleanup());

async function sources(): Promise<SourceJson[]> {
  server.clock.advance(1_100);
  const res = await server.get('/funding/v1/sources');
  assert.equal(res.status, 200);
  return res.json.data as SourceJson[];
}

/** The newest fechaRecepcion in the BDNS files as published (lists, details), read without the importer. */
function newestBdnsReceived(): string {
  const dir = join(import.meta.dirname, '..', '..', '..', 'data', 'funding', 'bdns');
  const days: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown;
    const rows = Array.isArray(json) ? json : ((json as { content?: unknown[] }).content ?? [json]);
    for (const row of rows as Array<{ fechaRecepcion?: string }>) if (row.fechaRecepcion) days.push(row.fechaRecepcion);
  }
  return days.reduce((a, b) => (a > b ? a : b));
}

test('each source says the day its newest record was published: the maximum over its served rows, the search’s newest call, the publisher’s files', async () => {
  const data = await sources();
  assert.deepEqual(data.map((s) => s.code).sort(), ['bdns', 'boe', 'cordis', 'eu']);
  const newestRow = server.app.db.prepare(
    'SELECT max(published_on) FROM funding_calls WHERE source = ? AND personal_data = 0',
  );
  for (const s of data) {
    const expected = (newestRow.pluck().get(s.code) as string | null) ?? null;
    assert.equal(s.newest_published_on, expected, `${s.code}: the newest of its rows`);
    if (s.code === 'cordis') {
      assert.equal(s.newest_published_on, null, 'CORDIS projects carry no publication day');
      continue;
    }
    server.clock.advance(1_100);
    const newestCall = await server.get(`/funding/v1/search?source=${s.code}&sort=published&per_page=1`);
    assert.equal(newestCall.status, 200);
    assert.equal(newestCall.json.data[0].published_on, s.newest_published_on, `${s.code}: the search’s newest call`);
  }
  const bdns = data.find((s) => s.code === 'bdns')!;
  assert.equal(bdns.newest_published_on, newestBdnsReceived(), 'BDNS: the newest fechaRecepcion of its files');
  // The demo's records are months old, not minutes: the day is not the day they were loaded.
  assert.ok(bdns.newest_published_on! < new Date(loadedAt).toISOString().slice(0, 10));
});

test('a loaded file is not a sync: last_import_at says when, no age is claimed, and none grows as time passes', async () => {
  for (const s of await sources()) {
    assert.equal(s.last_import_at, new Date(loadedAt).toISOString(), `${s.code}: loaded with the demo`);
    assert.equal(s.last_sync_at, null, `${s.code}: never synced`);
    assert.equal(s.data_age_seconds, null, `${s.code}: no age for data never synced`);
  }
  server.clock.advance(3 * 86_400_000);
  for (const s of await sources()) assert.equal(s.data_age_seconds, null, `${s.code}, three days on`);
  const metrics = (await server.get('/metrics')).text;
  assert.doesNotMatch(metrics, /^trio_funding_data_age_seconds\{/m, 'no data age metric for sources never synced');
  const bdns = (await sources()).find((s) => s.code === 'bdns')!;
  const line = metrics
    .split('\n')
    .find((l) => l.startsWith('trio_funding_newest_published_timestamp_seconds{source="bdns"}'));
  assert.equal(Number(line?.split(' ').pop()), Date.parse(`${bdns.newest_published_on}T00:00:00Z`) / 1000);
});

test('the contract documents the three dates (GET /funding/v1/openapi.json follows the schema)', async () => {
  server.clock.advance(1_100);
  const doc = (await server.get('/funding/v1/openapi.json')).json;
  const source = doc.components.schemas.SourcesResponse.properties.data.items;
  for (const field of ['newest_published_on', 'last_sync_at', 'last_import_at', 'data_age_seconds']) {
    assert.ok(source.required.includes(field), field);
    assert.ok((source.properties[field].description as string).length > 40, `${field} is described`);
  }
  assert.match(source.properties.newest_published_on.description, /published/);
  assert.match(source.properties.data_age_seconds.description, /synced/);
});

test('the search page says the snapshot’s day, from the records, and how to bring it up to date', async () => {
  const shown = (await sources()).filter((s) => s.code !== 'cordis');
  const newest = shown.map((s) => s.newest_published_on!).reduce((a, b) => (a > b ? a : b));
  server.clock.advance(60_000);
  const page = await server.get('/explore/funding');
  assert.equal(page.status, 200);
  const sentence = `Records published up to <time datetime="${newest}">${publishedDayWords(newest)}</time>; run <code>funding sync</code> to bring them up to date.`;
  assert.ok(page.text.includes(sentence), `the page says: ${sentence}`);
  assert.equal(publishedDayWords('2026-02-26'), '26 February 2026');
  for (const s of shown)
    assert.match(
      page.text,
      new RegExp(`\\(${s.code}\\) up to ${publishedDayWords(s.newest_published_on!)}, never synced`),
      s.code,
    );
  // Where a reader sees it: above the form, not under the results.
  assert.ok(page.text.indexOf('data-testid="data-age"') < page.text.indexOf('<form'), 'above the search form');
  assert.doesNotMatch(page.text, /minutes? old|Age of the data/, 'no age counted from the load');
});
