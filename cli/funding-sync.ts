/**
 * `funding sync`: fetch what is new or changed from the four funding sources (db/funding/sync/run.ts).
 * On a terminal, a progress bar per source (cli-progress); without one (a timer, cron, serve's own
 * schedule), a line per running source on stderr every FUNDING_SYNC_PROGRESS_EVERY, and one when each
 * source ends, so a log shows where a long run is. The summary counts calls and notices apart.
 */
import { MultiBar, Presets, type SingleBar } from 'cli-progress';
import { runFundingSync, type SourceSummary, type SyncSummary } from '../db/funding/sync/run.ts';
import type { Progress } from '../db/funding/sync/context.ts';
import { releaseSyncLocksOf } from '../db/funding/sync/state.ts';
import { isIsoDate } from '../lib/funding/zoned-time.ts';
import { SYNC_SOURCES } from '../lib/funding/sync-config.ts';
import type { SourceCode } from '../lib/funding/records.ts';
import { UsageError, type Command } from './command.ts';

export const TRIO_VERSION = '0.1.0';

function sourcesOption(value: string | boolean | undefined): SourceCode[] | undefined {
  if (value === undefined) return undefined;
  const list = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((s) => !(SYNC_SOURCES as readonly string[]).includes(s));
  if (list.length === 0 || bad.length)
    throw new UsageError(
      `--source is one of ${SYNC_SOURCES.join(', ')} (or several, comma-separated)${bad.length ? `; not ${bad.join(', ')}` : ''}`,
    );
  return list as SourceCode[];
}

/** CORDIS stores projects, the others calls; notices are BOE items and extracts that are not calls. */
function counts(s: SourceSummary): string {
  const rows = s.source === 'cordis' ? 'projects' : 'calls';
  const notices = s.source === 'boe' || s.source === 'bdns' ? `; notices: ${s.notices} new or changed` : '';
  return `${rows}: ${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged, ${s.withheld} withheld${notices}; documents: ${s.fetched} fetched, ${s.skipped} skipped, ${s.failed} failed`;
}

function line(s: SourceSummary): string {
  const status = s.status === 'failed' ? 'FAILED ' : s.complete ? 'ok     ' : 'partial';
  const head = `${s.source.padEnd(6)} ${status} ${counts(s)} (${s.requests} requests, ${s.seconds.toFixed(1)} s)`;
  return [
    head,
    ...s.notes.map((n) => `       note: ${n}`),
    ...(s.error
      ? [`       error: ${s.error}${s.consecutive_failures > 1 ? ` (${s.consecutive_failures} runs in a row)` : ''}`]
      : []),
  ].join('\n');
}

export const fundingSyncCommands: Command[] = [
  {
    words: ['funding', 'sync'],
    summary:
      'Fetch new and changed funding calls from the sources (EU portal, CORDIS, BDNS, BOE) and import them; resumes where the last sync stopped',
    usage: 'funding sync [--source eu|cordis|bdns|boe] [--since YYYY-MM-DD]',
    options: { source: { type: 'string' }, since: { type: 'string' } },
    async run(ctx, values) {
      const sources = sourcesOption(values.source);
      const since = values.since === undefined ? null : String(values.since);
      if (since !== null && !isIsoDate(since))
        throw new UsageError('--since is a day, YYYY-MM-DD (for example 2026-11-01)');
      const db = ctx.openDb();
      const multi = ctx.interactive
        ? new MultiBar(
            { format: '{source} [{bar}] {value}/{total} {label}', clearOnComplete: false, hideCursor: true },
            Presets.shades_classic,
          )
        : null;
      const bars = new Map<SourceCode, SingleBar>();
      // Without a terminal: the latest progress of the running source, printed at a steady pace.
      let latest: { source: SourceCode; p: Progress; since: number } | null = null;
      const ticker = multi
        ? null
        : setInterval(() => {
            if (!latest) return;
            const { source, p, since } = latest;
            const of = p.total === null ? '' : `${p.done}/${p.total} `;
            process.stderr.write(
              `funding sync: ${source} ${of}${p.label} (${Math.round((Date.now() - since) / 1000)} s)\n`,
            );
          }, ctx.config.fundingSync.progressEveryMs);
      ticker?.unref();
      // Stopped (serve's scheduler stopping, systemd, Ctrl-C): batches are synchronous transactions, so
      // the handler runs between two of them; free the lock so the next run need not wait for its expiry.
      const stop = (signal: NodeJS.Signals) => {
        multi?.stop();
        releaseSyncLocksOf(db);
        db.close();
        process.stderr.write(`${signal}: funding sync stopped; the next run resumes from the watermarks\n`);
        process.exit(signal === 'SIGINT' ? 130 : 143);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      const summary: SyncSummary = await runFundingSync(db, {
        config: ctx.config.fundingSync,
        sources,
        since,
        now: ctx.now,
        version: TRIO_VERSION,
        onSourceDone: (s) => {
          if (!multi) process.stderr.write(`funding sync: ${line(s).split('\n')[0]}\n`);
        },
        onProgress: (source, p) => {
          if (!multi) {
            latest = { source, p, since: latest?.source === source ? latest.since : Date.now() };
            return;
          }
          let bar = bars.get(source);
          if (!bar) bars.set(source, (bar = multi.create(p.total ?? 1, 0, { source: source.padEnd(6), label: '' })));
          if (p.total !== null) bar.setTotal(p.total);
          bar.update(p.done, { label: p.label });
        },
      });
      multi?.stop();
      if (ticker) clearInterval(ticker);
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      return { ...summary };
    },
    text: (r) => {
      const s = r as unknown as SyncSummary;
      if (s.locked) return `nothing done: ${s.locked}`;
      // The index merge is routine: said only when it took long enough to explain the run's time.
      const index =
        s.index && s.index.ms >= 1000
          ? [
              `full-text index merged: ${s.index.segmentsBefore} → ${s.index.segmentsAfter} segments, in ${(s.index.ms / 1000).toFixed(1)} s`,
            ]
          : [];
      return [...s.warnings.map((w) => `warning: ${w}`), ...s.sources.map(line), ...index].join('\n');
    },
    // Cron and systemd see a failed source as a failed run; the summary is printed either way.
    exitCode: (r) => ((r as unknown as SyncSummary).sources.some((s) => s.status === 'failed') ? 1 : 0),
  },
];
