/**
 * BOE: one sumario per day, GET <base>/AAAAMMDD with Accept: application/json
 * (https://www.boe.es/datosabiertos/api/boe/sumario/AAAAMMDD). A 404 means no issue that day
 * (usually a Sunday). Watermark: `{day}`, the last day (Madrid) read for good. Today is read but
 * never passed by the watermark (its sumario may not be out yet, or gain an extraordinary issue),
 * so the next run asks for it again, conditionally. First run: FUNDING_SYNC_BACKFILL_DAYS back.
 *
 * Item documents: a real sumario title carries neither the BDNS number nor the deadline sentence;
 * both are in the item's own document, which the sumario links as `url_xml`
 * (https://www.boe.es/diario_boe/xml.php?id=BOE-B-…). For each grant item of a new or changed
 * sumario the sync fetches that document, and imports the sumario and its documents together, in one
 * transaction: a day is stored with its documents or not at all. A document that cannot be had (after
 * retries, or a 404) fails the day, naming the item and its URL; the next run starts there again.
 */
import { parseBoe } from '../../../lib/funding/parse-boe.ts';
import { ImportFormatError } from '../../../lib/funding/records.ts';
import { addDays, toLocal } from '../../../lib/funding/zoned-time.ts';
import { answerValidators, SyncError, type Batch, type SourceRun } from './context.ts';

interface BoeWatermark {
  day: string;
}

export async function syncBoe(run: SourceRun): Promise<void> {
  const today = toLocal(run.now(), 'Europe/Madrid').date;
  const w = run.state.watermark<BoeWatermark>('boe');
  let day = run.since ?? (w.day ? addDays(w.day, 1) : addDays(today, -run.config.backfillDays));
  if (day > today) day = today;
  const days: string[] = [];
  for (let d = day; d <= today; d = addDays(d, 1)) days.push(d);
  const advance = (d: string) => {
    if (d < today && (!w.day || d > w.day)) {
      w.day = d;
      run.state.setWatermark('boe', w);
    }
  };
  for (const [i, d] of days.entries()) {
    run.progress({ done: i, total: days.length, label: d });
    const what = `BOE sumario of ${d}`;
    const url = `${run.config.urls.boe}/${d.replaceAll('-', '')}`;
    const res = await run.fetch(what, url, { headers: { accept: 'application/json' } });
    if (res.status === 404 || res.status === 304) {
      run.counts.skipped++; // no issue that day, or not modified since we read it
      run.commit(() => advance(d));
      continue;
    }
    const { validators, bodySha, unchanged } = answerValidators(res);
    if (unchanged) {
      run.counts.skipped++;
      run.commit(() => {
        run.state.setValidators(url, validators, run.now());
        advance(d);
      });
      continue;
    }
    const text = res.body.toString('utf8');
    let documents: Array<{ id: string; url: string }>;
    try {
      documents = parseBoe(text).documents;
    } catch (err) {
      if (err instanceof ImportFormatError) throw new SyncError(`${what} (${url}): ${err.message}`, true);
      throw err;
    }
    const batch: Batch = { name: url, text, what, documents: [] };
    for (const doc of documents) {
      const docWhat = `BOE document ${doc.id} of ${d}`;
      const answer = await run.fetch(docWhat, doc.url, { headers: { accept: 'application/xml' } }, false);
      if (answer.status === 404) throw new SyncError(`${docWhat} (${doc.url}): the BOE answered 404`);
      batch.documents!.push({ name: doc.url, text: answer.body.toString('utf8') });
    }
    run.importBatch([batch], () => {
      run.state.setValidators(url, { ...validators, body_sha256: bodySha }, run.now());
      advance(d);
    });
  }
  run.progress({ done: days.length, total: days.length, label: today });
}
