/**
 * Runs an operator command (cli/human.ts) the way main.ts does, on its own database connection to the
 * server's file, as a separate `npm run cli -- …` process would.
 */
import { parseArgs } from 'node:util';
import { humanCommands } from '../../../cli/human.ts';
import { openDatabase, type Db } from '../../../db/connection.ts';
import { readConfig } from '../../../lib/config.ts';

export async function operator(databasePath: string, now: number, ...argv: string[]): Promise<Record<string, unknown>> {
  const command = humanCommands.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) throw new Error(`no command ${argv.join(' ')}`);
  const { values, positionals } = parseArgs({
    args: argv.slice(command.words.length),
    options: command.options,
    allowPositionals: true,
    strict: true,
  });
  let db: Db | undefined;
  try {
    return await command.run(
      {
        config: readConfig({ DATABASE_PATH: databasePath }),
        openDb: () => (db ??= openDatabase(databasePath)),
        now: () => now,
        interactive: false,
      },
      values as Record<string, string | boolean | undefined>,
      positionals,
    );
  } finally {
    db?.close();
  }
}
