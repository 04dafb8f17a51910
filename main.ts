/**
 * trio's one entry point: `npx tsx main.ts <command>` (also `npm run cli -- <command>`).
 * `serve` starts the server; the other commands are for operators. Every command takes --help, and
 * --json to print one JSON object on stdout.
 */
import { parseArgs } from 'node:util';
import { accountCommands } from './cli/accounts.ts';
import { backupCommands } from './cli/backup.ts';
import { billingCommands } from './cli/billing.ts';
import { fundingRuleCommands } from './cli/funding-rules.ts';
import { fundingIndexCommands } from './cli/funding-index.ts';
import { fundingSyncCommands } from './cli/funding-sync.ts';
import { UsageError, type CliContext, type Command } from './cli/command.ts';
import { humanCommands } from './cli/human.ts';
import { mailCommands } from './cli/mail.ts';
import { impactCommands } from './cli/impact.ts';
import { serverCommands } from './cli/server.ts';
import { openDatabase, type Db } from './db/connection.ts';
import { migrate } from './db/migrate.ts';
import { readConfig } from './lib/config.ts';

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

async function main(argv: string[]): Promise<number> {
  const command = COMMANDS.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) {
    const asked = argv[0] === undefined || argv[0] === '--help' || argv[0] === 'help';
    (asked ? process.stdout : process.stderr).write(overview() + '\n');
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
    process.stderr.write(`${(err as Error).message}\n\n${help(command)}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(help(command) + '\n');
    return 0;
  }
  const json = values.json === true;
  let db: Db | undefined;
  try {
    const config = readConfig(process.env);
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
      interactive: !json && process.stdout.isTTY === true,
    };
    const result = await command.run(ctx, values as Record<string, string | boolean | undefined>, positionals);
    const out = json ? JSON.stringify(result) : (command.text?.(result) ?? plain(result));
    if (out !== '') process.stdout.write(out + '\n');
    if (command.words[0] !== 'serve') db?.close();
    return command.exitCode?.(result) ?? 0;
  } catch (err) {
    db?.close();
    const message = err instanceof Error ? err.message : String(err);
    if (json) process.stdout.write(JSON.stringify({ error: message }) + '\n');
    else process.stderr.write(`error: ${message}${err instanceof UsageError ? `\n\n${help(command)}` : ''}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}

function plain(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

const code = await main(process.argv.slice(2));
if (code !== 0 || !process.argv.slice(2).includes('serve')) process.exitCode = code;
