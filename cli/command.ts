/**
 * What a sub-command is: its words, its options (node:util parseArgs), and a run function returning
 * a plain object. main.ts prints that object as one JSON line with --json, or as text otherwise, so
 * every command gets --help and --json the same way.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Db } from '../db/connection.ts';
import type { Config } from '../lib/config.ts';

export interface CliContext {
  config: Config;
  /** Opens the database and applies pending migrations. */
  openDb(): Db;
  now(): number;
  /** True when stdout is a terminal and --json was not asked for: progress bars may be drawn. */
  interactive: boolean;
}

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

export interface Command {
  words: string[];
  summary: string;
  usage: string;
  options: Options;
  /** Names of the positional arguments, in order (all required). */
  positionals?: string[];
  run(
    ctx: CliContext,
    values: Values,
    positionals: string[],
  ): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Text for a person; defaults to key: value lines. */
  text?(result: Record<string, unknown>): string;
  /** Exit status after printing the result (default 0): a command can report and still fail. */
  exitCode?(result: Record<string, unknown>): number;
}

export class UsageError extends Error {}

export function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
