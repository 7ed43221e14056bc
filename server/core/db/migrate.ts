import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = join(import.meta.dir, '..', '..', 'migrations');
// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 7_210_001;
// A migration may rewrite a large table; the request deadline (QC_DB_TIMEOUT_MS) is not meant for it.
const MIGRATION_TIMEOUT = { timeoutMs: 10 * 60_000 };

/**
 * Applies every `server/migrations/*.sql` not yet recorded in `schema_migrations`, in file-name order,
 * each in its own transaction. An advisory lock keeps two processes starting together from racing.
 */
export async function migrate(
  db: Db,
  /** Called before each migration is applied (start-up prints progress with it). */
  onApply?: (file: string, index: number, pending: number) => void,
): Promise<string[]> {
  const files = migrationFiles();
  return db.tx(async (tx) => {
    await tx.sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx.sql`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`;
    const done = new Set((await tx.sql<{ name: string }>`select name from schema_migrations`).map((r) => r.name));
    const applied: string[] = [];
    const pending = files.filter((file) => !done.has(file.name));
    for (const { name, text } of pending) {
      onApply?.(name, applied.length, pending.length);
      await execScript(tx, text);
      await tx.sql`insert into schema_migrations (name) values (${name})`;
      applied.push(name);
    }
    return applied;
  }, MIGRATION_TIMEOUT);
}

/** Every `server/migrations/*.sql` in the order they apply, with its text. */
export function migrationFiles(): { name: string; text: string }[] {
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
