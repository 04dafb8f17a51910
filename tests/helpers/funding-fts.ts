/**
 * A small full-text index built like the real one: the table definition is read from the migration
 * that made it (db/migrations/012_funding_derived_terms.sql), and rows are written the way the
 * triggers write them (each field's stemmed keys, then the derived terms), without the rest of the
 * schema. For the query compiler's tests (tests/lib/funding/search-query.test.ts).
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { derivedText, TEXT_FIELDS, type TextField } from '../../lib/funding/derived-terms.ts';
import { indexText } from '../../lib/funding/stem.ts';

const MIGRATION = join(import.meta.dirname, '..', '..', 'db', 'migrations', '012_funding_derived_terms.sql');

export type MiniCall = Partial<Record<TextField, string>> & { language: string };

export function miniFundingFts() {
  const create = /CREATE VIRTUAL TABLE funding_calls_fts USING fts5\([\s\S]*?\);/.exec(readFileSync(MIGRATION, 'utf8'));
  if (!create) throw new Error(`no CREATE VIRTUAL TABLE funding_calls_fts in ${MIGRATION}`);
  const db = new Database(':memory:');
  db.exec(create[0]);
  const insert = db.prepare(
    `INSERT INTO funding_calls_fts(rowid, ${TEXT_FIELDS.join(', ')}, facets, derived) VALUES (?, ${TEXT_FIELDS.map(() => '?').join(', ')}, '', ?)`,
  );
  const match = db
    .prepare('SELECT rowid FROM funding_calls_fts WHERE funding_calls_fts MATCH ? ORDER BY rowid')
    .pluck();
  return {
    db,
    add(rowid: number, call: MiniCall): void {
      const keyed = Object.fromEntries(TEXT_FIELDS.map((f) => [f, indexText(call[f] ?? '', call.language)])) as Record<
        TextField,
        string
      >;
      insert.run(rowid, ...TEXT_FIELDS.map((f) => keyed[f]), derivedText(keyed));
    },
    /** The rowids an FTS5 expression matches, ascending. */
    rows: (expr: string) => match.all(expr) as number[],
  };
}
