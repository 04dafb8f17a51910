/**
 * The CLI's dispatch: finds the command a command line names, parses its options, answers --help, runs
 * it and prints its result (one JSON line with --json, text otherwise). main.ts is the process around it.
 */
import { parseArgs } from 'node:util';
import { accountCommands } from './accounts.ts';
import { backupCommands } from './backup.ts';
import { billingCommands } from './billing.ts';
import { fundingRuleCommands } from './funding-rules.ts';
import { fundingIndexCommands } from './funding-index.ts';
import { fundingSyncCommands } from './funding-sync.ts';
import { UsageError, type CliContext, type Command } from './command.ts';
import { humanCommands } from './human.ts';
import { mailCommands } from './mail.ts';
import { impactCommands } from './impact.ts';
import { serverCommands } from './server.ts';
import { openDatabase, type Db } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import { readConfig } from '../lib/config.ts';

const COMMANDS: Command[] = [
  ...serverCommands,
  ...fundingRuleCommands,
  ...fundingIndexCommands,
  ...backupCommands,
  ...impactCommands,
  ...accountCommands,
  ...humanCommands,
  ...fundingSyncCommands,
  ...mailCommands,
  ...billingCommands,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    'usage: main.ts <command> [options]   (every command takes --help and --json)',
    '',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

function help(command: Command): string {
  return `usage: main.ts ${command.usage} [--json]\n\n${command.summary}.\n\n--json  print one JSON object on stdout\n--help  this text`;
}

/** Where a run of the CLI writes and what environment it reads: the process's own in main.ts. */
export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

/**
 * Runs one command line (argv without `node main.ts`) and resolves with its exit code: 0, 1 for a
 * failed command, 2 for a usage error. main.ts hands it the process's streams and environment; the
 * tests may hand it captured ones to check many command lines without a process each.
 */
export async function runCli(argv: string[], io: CliIo = process): Promise<number> {
  const command = COMMANDS.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) {
    const asked = argv[0] === undefined || argv[0] === '--help' || argv[0] === 'help';
    (asked ? io.stdout : io.stderr).write(overview() + '\n');
    return asked ? 0 : 2;
  }
  const rest = argv.slice(command.words.length);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    io.stderr.write(`${(err as Error).message}\n\n${help(command)}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(help(command) + '\n');
    return 0;
  }
  const json = values.json === true;
  let db: Db | undefined;
  try {
    const config = readConfig(io.env);
    const expected = command.positionals ?? [];
    if (positionals.length !== expected.length)
      throw new UsageError(`expected ${expected.length ? expected.join(' ') : 'no arguments'}`);
    const ctx: CliContext = {
      config,
      openDb: () => {
        if (!db) {
          db = openDatabase(config.databasePath);
          migrate(db);
        }
        return db;
      },
      now: Date.now,
      interactive: !json && io.stdout.isTTY === true,
    };
    const result = await command.run(ctx, values as Record<string, string | boolean | undefined>, positionals);
    const out = json ? JSON.stringify(result) : (command.text?.(result) ?? plain(result));
    if (out !== '') io.stdout.write(out + '\n');
    if (command.words[0] !== 'serve') db?.close();
    return command.exitCode?.(result) ?? 0;
  } catch (err) {
    db?.close();
    const message = err instanceof Error ? err.message : String(err);
    if (json) io.stdout.write(JSON.stringify({ error: message }) + '\n');
    else io.stderr.write(`error: ${message}${err instanceof UsageError ? `\n\n${help(command)}` : ''}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

function plain(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}
