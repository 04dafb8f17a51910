/**
 * What a request changes after its answer has gone: db/write-behind.ts commits daily quota counts
 * and keys' last-used times about once a second, and the webhook deliverer records its attempts on
 * the deliveries a request queued, so whether a read sees them depends on when the flush or the
 * attempt ran. A test that compares stored rows to say "nothing changed" leaves these out (or flushes
 * first); comparing them makes the test fail by timing, not by behaviour.
 */
export const WRITTEN_BEHIND_TABLES: ReadonlySet<string> = new Set(['quota_daily']);
export const WRITTEN_BEHIND_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_keys: ['last_used_at'],
  webhook_deliveries: [
    'status',
    'attempts',
    'next_attempt_at',
    'locked_until',
    'last_attempt_at',
    'last_status',
    'last_error',
    'finished_at',
  ],
};

/** The row without its written-behind columns. */
export function withoutWrittenBehind(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const dropped = WRITTEN_BEHIND_COLUMNS[table] ?? [];
  return Object.fromEntries(Object.entries(row).filter(([column]) => !dropped.includes(column)));
}
