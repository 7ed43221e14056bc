/**
 * The command line the operators' backfills share (calendar-backfill.ts, revision-customer-backfill.ts): `--batch N`
 * (or `--batch=N`), `--pause-ms N`, `--help`, a PostgreSQL DATABASE_URL. Exit status 0 when done (or nothing to do),
 * 1 when it cannot run here (a database never migrated, a wrong variable), 2 on bad usage (an unknown option, a bad
 * value, no DATABASE_URL); each refusal is one line on stderr, before any connection.
 */
import { type Config, ConfigError, parseConfig } from '../server/core/config.ts';
import type { Db } from '../server/core/db/db.ts';

export interface BackfillOptions {
  /** Parents (or rows) per transaction. */
  batch: number;
  /** Milliseconds between two batches. */
  pauseMs: number;
}

export interface BackfillCommand {
  /** The npm script's name, which starts each refusal. */
  name: string;
  usage: string;
  /** `--batch`'s default. */
  batch: number;
  /**
   * What it does to the database named, and why the embedded one needs none of it: it refuses to run without
   * DATABASE_URL (opening the embedded database would create an empty one under the data dir).
   */
  purpose: string;
  /** Opens the PostgreSQL database named (DATABASE_URL set), closed after the run. */
  open(config: Config & { databaseUrl: string }): Db | Promise<Db>;
  /** The run on a parsed command line: the line printed when done (exit 0), or a refusal (exit 1, one line). */
  run(db: Db, options: BackfillOptions): Promise<{ done: string } | { refused: string }>;
}

class UsageError extends Error {}

/** The command line (`--batch N` or `--batch=N`, `--pause-ms N`, `--help`); anything else is a UsageError. */
function backfillArguments(args: readonly string[], batch: number): BackfillOptions | 'help' {
  const options = { '--batch': { least: 1, fallback: batch }, '--pause-ms': { least: 0, fallback: 0 } } as const;
  const values: Record<string, number> = { '--batch': batch, '--pause-ms': 0 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') return 'help';
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const option = options[name as keyof typeof options];
    if (!option) throw new UsageError(`unknown option ${JSON.stringify(arg)} (see --help)`);
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || !/^\d{1,9}$/.test(value) || Number(value) < option.least)
      throw new UsageError(
        `${name} takes a whole number, ${option.least} or more (got ${JSON.stringify(value ?? '')})`,
      );
    values[name] = Number(value);
  }
  return { batch: values['--batch'] as number, pauseMs: values['--pause-ms'] as number };
}

/** Runs `command` on `args`: its exit status. */
export async function backfillCommand(command: BackfillCommand, args: readonly string[]): Promise<number> {
  let options: BackfillOptions;
  let config: Config;
  try {
    const parsed = backfillArguments(args, command.batch);
    if (parsed === 'help') {
      console.log(command.usage);
      return 0;
    }
    options = parsed;
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof UsageError) return refuse(command.name, 2, err.message);
    if (err instanceof ConfigError) return refuse(command.name, 1, err.message);
    throw err;
  }
  if (!config.databaseUrl)
    return refuse(command.name, 2, `DATABASE_URL must name the PostgreSQL database to ${command.purpose}`);
  const db = await command.open({ ...config, databaseUrl: config.databaseUrl });
  try {
    const outcome = await command.run(db, options);
    if ('refused' in outcome) return refuse(command.name, 1, outcome.refused);
    console.log(outcome.done);
    return 0;
  } finally {
    await db.close();
  }
}

/** A refusal: one line on stderr, and the exit status to end with. */
function refuse(name: string, status: number, line: string): number {
  console.error(`${name}: ${line}`);
  return status;
}
