/**
 * SQL functions the funding schema's triggers call (db/migrations/008_funding_search.sql, and the view of
 * db/migrations/012_funding_derived_terms.sql), registered
 * on every connection by db/connection.ts. They keep the index and the served deadline the triggers'
 * business, so every path that writes a call (importers, the bench generator, a withholding command)
 * indexes it the same way without knowing how.
 *
 *  - funding_index_text(text, language): the stemmed keys FTS5 indexes for a field (lib/funding/stem.ts);
 *  - funding_derived_text(ids, title, summary, funder, programme, region, body, language): from those
 *    fields' keys, the title and word-pair terms of the index's `derived` column (lib/funding/derived-terms.ts);
 *  - funding_closes_at(date, time, zone): the UTC ms a cut-off closes (lib/funding/zoned-time.ts), or
 *    null without a date; the served deadline's instant, which `sort=deadline` orders by.
 */
import type Database from 'better-sqlite3';
import { derivedText, TEXT_FIELDS, type TextField } from '../../lib/funding/derived-terms.ts';
import { indexText } from '../../lib/funding/stem.ts';
import { closesAt } from '../../lib/funding/zoned-time.ts';

/**
 * A call's index row asks for each field's keys twice, for its own column and for the derived terms
 * (view funding_calls_indexed, migration 012): the last few answers are kept for the second ask.
 */
const recentKeys = new Map<string, string>();

function keysOf(text: unknown, language: unknown): string {
  const t = typeof text === 'string' ? text : text === null || text === undefined ? null : String(text);
  const l = typeof language === 'string' ? language : null;
  if (t === null) return indexText(null, l);
  const memo = `${l ?? ''}\u0000${t}`;
  let keys = recentKeys.get(memo);
  if (keys === undefined) {
    keys = indexText(t, l);
    if (recentKeys.size >= 16) recentKeys.delete(recentKeys.keys().next().value!); // the oldest
    recentKeys.set(memo, keys);
  }
  return keys;
}

export function registerFundingFunctions(db: Database.Database): void {
  // not Db: connection.ts imports this file
  db.function('funding_index_text', { deterministic: true }, (text: unknown, language: unknown) =>
    keysOf(text, language),
  );
  db.function(
    'funding_derived_text',
    { deterministic: true },
    (
      ids: unknown,
      title: unknown,
      summary: unknown,
      funder: unknown,
      programme: unknown,
      region: unknown,
      body: unknown,
      language: unknown,
    ) => {
      const fields = [ids, title, summary, funder, programme, region, body];
      return derivedText(
        Object.fromEntries(TEXT_FIELDS.map((f, i) => [f, keysOf(fields[i], language)])) as Record<TextField, string>,
      );
    },
  );
  db.function('funding_closes_at', { deterministic: true }, (date: unknown, time: unknown, zone: unknown) =>
    typeof date === 'string' && typeof zone === 'string'
      ? closesAt({ date, time: typeof time === 'string' ? time : null }, zone)
      : null,
  );
}
