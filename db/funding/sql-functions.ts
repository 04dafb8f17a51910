/**
 * SQL functions the funding schema's triggers call (db/migrations/008_funding_search.sql), registered
 * on every connection by db/connection.ts. They keep the index and the served deadline the triggers'
 * business, so every path that writes a call (importers, the bench generator, a withholding command)
 * indexes it the same way without knowing how.
 *
 *  - funding_index_text(text, language): the stemmed keys FTS5 indexes for a field (lib/funding/stem.ts);
 *  - funding_closes_at(date, time, zone): the UTC ms a cut-off closes (lib/funding/zoned-time.ts), or
 *    null without a date; the served deadline's instant, which `sort=deadline` orders by.
 */
import type Database from 'better-sqlite3';
import { indexText } from '../../lib/funding/stem.ts';
import { closesAt } from '../../lib/funding/zoned-time.ts';

export function registerFundingFunctions(db: Database.Database): void {
  // not Db: connection.ts imports this file
  db.function('funding_index_text', { deterministic: true }, (text: unknown, language: unknown) =>
    indexText(
      typeof text === 'string' ? text : text === null ? null : String(text),
      typeof language === 'string' ? language : null,
    ),
  );
  db.function('funding_closes_at', { deterministic: true }, (date: unknown, time: unknown, zone: unknown) =>
    typeof date === 'string' && typeof zone === 'string'
      ? closesAt({ date, time: typeof time === 'string' ? time : null }, zone)
      : null,
  );
}
