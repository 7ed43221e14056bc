import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Db, sqlState } from './db.ts';

const MIGRATIONS_DIR = join(import.meta.dir, '..', '..', 'migrations');
// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 7_210_001;
// A migration may rewrite a large table; the request deadline (QC_DB_TIMEOUT_MS) is not meant for it.
const MIGRATION_TIMEOUT = { timeoutMs: 10 * 60_000 };
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * How long one migration waits for a table lock, how often it tries, and the rest between tries. A DDL statement
 * that waits for its lock behind a long transaction (a report, a backup's, a stuck client) holds its place in the
 * lock queue, and every statement on that table arrives behind it: one `alter table` waiting minutes stalls the
 * whole service for minutes. So it waits at most 1 s (requests behind it stay within QC_DB_TIMEOUT_MS), gives
 * its place back, rests and tries again, about a minute in all, then stops the start naming the migration.
 */
export const MIGRATION_LOCK_WAIT = { timeoutMs: 1000, attempts: 30, restMs: 1000 };

export interface MigrationFile {
  name: string;
  text: string;
}

export interface MigrateOptions {
  /** The migrations to apply, in order (tests); default every `server/migrations/*.sql`. */
  files?: MigrationFile[];
  /** Overrides MIGRATION_LOCK_WAIT (tests). */
  lockWait?: { timeoutMs: number; attempts: number; restMs: number };
  /** Called when a migration's lock wait ran out and it will try again (start-up logs it). */
  onLockBusy?: (file: string, attempt: number) => void | Promise<void>;
}

/** A migration that could not take its table locks in the bounded waits: the start stops and names it. */
export class MigrationLockBusy extends Error {
  constructor(
    readonly file: string,
    attempts: number,
    timeoutMs: number,
  ) {
    super(
      `Migration ${file} did not get its table locks in ${attempts} waits of ${timeoutMs} ms: a long transaction ` +
        'holds a table it changes (look for old xact_start in pg_stat_activity), end it and start again',
    );
    this.name = 'MigrationLockBusy';
  }
}

/**
 * Applies every `server/migrations/*.sql` not yet recorded in `schema_migrations`, in file-name order, each in its
 * own transaction, so a migration's locks are released when it is recorded and not held through the ones after
 * it. Each transaction first takes an advisory lock, so processes starting together apply each migration once
 * (the others wait, then find it recorded), and bounds its lock waits (MIGRATION_LOCK_WAIT).
 */
export async function migrate(
  db: Db,
  /** Called before each migration is applied (start-up prints progress with it). */
  onApply?: (file: string, index: number, pending: number) => void,
  options: MigrateOptions = {},
): Promise<string[]> {
  const files = options.files ?? migrationFiles();
  const wait = options.lockWait ?? MIGRATION_LOCK_WAIT;
  const applied: string[] = [];
  let total: number | undefined;
  for (;;) {
    const next = await withLockRetries(wait, options.onLockBusy, (attempting) =>
      db.tx(async (tx) => {
        await tx.sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
        // After the advisory lock: a process waiting for another's migration waits as long as that one takes.
        await tx.query(`set local lock_timeout = '${wait.timeoutMs}ms'`);
        await tx.sql`create table if not exists schema_migrations (
          name text primary key, applied_at timestamptz not null default now())`;
        const done = new Set((await tx.sql<{ name: string }>`select name from schema_migrations`).map((r) => r.name));
        const pending = files.filter((file) => !done.has(file.name));
        const file = pending[0];
        if (!file) return undefined;
        total ??= pending.length;
        attempting(file.name);
        onApply?.(file.name, applied.length, total);
        await execScript(tx, file.text);
        await tx.sql`insert into schema_migrations (name) values (${file.name})`;
        return file.name;
      }, MIGRATION_TIMEOUT),
    );
    if (next === undefined) return applied;
    applied.push(next);
  }
}

/** Runs one migration's transaction again while it fails for a lock wait, up to the attempts. */
async function withLockRetries<T>(
  wait: { timeoutMs: number; attempts: number; restMs: number },
  onLockBusy: MigrateOptions['onLockBusy'],
  run: (attempting: (file: string) => void) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let file = 'schema_migrations';
    try {
      return await run((name) => {
        file = name;
      });
    } catch (err) {
      if (sqlState(err) !== LOCK_NOT_AVAILABLE) throw err;
      if (attempt >= wait.attempts) throw new MigrationLockBusy(file, attempt, wait.timeoutMs);
      await onLockBusy?.(file, attempt);
      await Bun.sleep(wait.restMs);
    }
  }
}

/** Every `server/migrations/*.sql` in the order they apply, with its text. */
export function migrationFiles(): MigrationFile[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(MIGRATIONS_DIR, name), 'utf8') }));
}

/** Multi-statement scripts must go through the simple protocol: no parameters. */
async function execScript(db: Db, text: string): Promise<void> {
  // postgres.js: unsafe without params and without prepare runs as a simple query; PGlite's query does
  // not accept several statements, so split on statement boundaries marked by a line ending in ';'.
  for (const statement of splitStatements(text)) await db.query(statement);
}

export function splitStatements(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of text.split('\n')) {
    if (/^\s*--/.test(line) && !inDollar) continue;
    current += `${line}\n`;
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    if (!inDollar && /;\s*$/.test(line)) {
      if (current.trim()) out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
