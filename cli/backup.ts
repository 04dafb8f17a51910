/**
 * backup and restore: a consistent copy of the database while the server serves, and putting one
 * back while it does not (the work itself is in db/backup.ts).
 */
import { Presets, SingleBar } from 'cli-progress';
import { backupDatabase, restoreDatabase, type Progress } from '../db/backup.ts';
import type { CliContext, Command } from './command.ts';

const mib = (bytes: unknown) => `${((bytes as number) / 2 ** 20).toFixed(1)} MiB`;

/** A progress bar over pages while on a terminal; nothing otherwise. */
function pageBar(ctx: CliContext, label: string): { onProgress?: Progress; stop(): void } {
  if (!ctx.interactive) return { stop: () => {} };
  const bar = new SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total} pages` }, Presets.shades_classic);
  let started = false;
  return {
    onProgress: (done, total) => {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

export const backupCommands: Command[] = [
  {
    words: ['backup'],
    summary:
      'Copy the database to FILE while the server keeps serving (SQLite online backup, checked with integrity_check); --force replaces an existing FILE',
    usage: 'backup FILE [--force]',
    options: { force: { type: 'boolean' } },
    positionals: ['FILE'],
    async run(ctx, values, [file]) {
      const bar = pageBar(ctx, 'backup');
      try {
        return {
          ...(await backupDatabase(ctx.config.databasePath, file!, {
            force: values.force === true,
            ...(bar.onProgress ? { onProgress: bar.onProgress } : {}),
          })),
        };
      } finally {
        bar.stop();
      }
    },
    text: (r) =>
      `backed up ${r.database} to ${r.file}: ${mib(r.bytes)}, migration ${r.migration}, integrity ${r.integrity}, ${r.ms} ms` +
      (r.restarts ? ` (${r.restarts} restart${r.restarts === 1 ? '' : 's'}: the server wrote while copying)` : ''),
  },
  {
    words: ['restore'],
    summary: 'Replace the database with the backup FILE (checked first); refused while a server runs on the database',
    usage: 'restore FILE',
    options: {},
    positionals: ['FILE'],
    async run(ctx, _values, [file]) {
      const bar = pageBar(ctx, 'restore');
      try {
        return {
          ...(await restoreDatabase(
            file!,
            ctx.config.databasePath,
            bar.onProgress ? { onProgress: bar.onProgress } : {},
          )),
        };
      } finally {
        bar.stop();
      }
    },
    text: (r) =>
      `restored ${r.file} to ${r.database}${r.replaced ? ' (replacing it)' : ''}: ${mib(r.bytes)}, migration ${r.migration}, integrity ${r.integrity}` +
      ((r.pending as number[]).length
        ? `; the next start applies migrations ${(r.pending as number[]).join(', ')}`
        : ''),
  },
];
