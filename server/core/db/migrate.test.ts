import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Db } from './db.ts';
import { type MigrationFile, MigrationLockBusy, migrate } from './migrate.ts';
import { openPostgres } from './postgres.ts';

/**
 * The runner as an upgrade meets it on a live database with several processes: each test hands it migrations of
 * its own (on tables of its own) and holds, on other connections, what production traffic or a second node holds.
 * PostgreSQL only: the embedded database is one connection, nothing can hold a lock beside the runner.
 */
describe.skipIf(!process.env.DATABASE_URL)('migrate', () => {
  const prefix = `qc_migrate_test_${process.pid}`;
  let db: Db;
  let other: Db;
  const names: string[] = [];
  const tables: string[] = [];

  /** A migration file of this test run, removed from schema_migrations afterwards. */
  const file = (name: string, text: string): MigrationFile => {
    names.push(`9999_${prefix}_${name}.sql`);
    return { name: `9999_${prefix}_${name}.sql`, text };
  };
  const table = async (name: string): Promise<string> => {
    const full = `${prefix}_${name}`;
    tables.push(full);
    await db.query(`create table ${full} (id int)`);
    return full;
  };
  const recorded = async (name: string) => (await db.sql`select 1 from schema_migrations where name = ${name}`).length;
  /**
   * A long transaction that read the table (a report, a backup's snapshot): it holds ACCESS SHARE until released.
   * Answered once the read is done, so the runner surely meets the lock: started and not awaited, a loaded machine
   * ran the runner's alter first (the migration applied, no lock wait; seen once beside other test files).
   */
  const longReader = async (busy: string) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const ended = other.tx(async (tx) => {
      await tx.query(`select * from ${busy}`);
      holding();
      await released;
    });
    await held;
    return { release, ended };
  };

  beforeAll(() => {
    // The connection migrations take (open.ts openMigrationDb): the direct one when the suite runs behind a
    // transaction pooler (npm run test:production), which refuses a session's startup parameters.
    const url = (process.env.DATABASE_SESSION_URL ?? process.env.DATABASE_URL) as string;
    db = openPostgres(url, { max: 4, timeoutMs: 30_000 });
    other = openPostgres(url, { max: 2, timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await db.sql`delete from schema_migrations where name = any(${names}::text[])`;
    for (const t of tables) await db.query(`drop table if exists ${t}`);
    await other.close();
    await db.close();
  });

  it('applies a migration once when two processes start at the same moment', async () => {
    // Not idempotent on purpose: a second run of it fails, so only the advisory lock lets both starts succeed.
    const create = file('two_starts', `create table ${prefix}_two_starts (id int);`);
    tables.push(`${prefix}_two_starts`);
    const [a, b] = await Promise.all([
      migrate(db, undefined, { files: [create] }),
      migrate(other, undefined, { files: [create] }),
    ]);
    expect([...a, ...b]).toEqual([create.name]);
    expect(await recorded(create.name)).toBe(1);
  });

  it('gives its place in the lock queue back instead of queueing every statement on the table behind it', async () => {
    const busy = await table('lock_queue');
    const alter = file('lock_queue', `alter table ${busy} add column extra int;`);
    const reader = await longReader(busy);
    const outcome = await migrate(db, undefined, {
      files: [alter],
      lockWait: { timeoutMs: 50, attempts: 3, restMs: 10 },
    }).catch((err: unknown) => err);
    // The reader is still open: the runner gave up on its own, it did not wait for the reader to end.
    expect(outcome).toBeInstanceOf(MigrationLockBusy);
    expect((outcome as MigrationLockBusy).file).toBe(alter.name);
    expect(await recorded(alter.name)).toBe(0);
    reader.release();
    await reader.ended;
  });

  it('tries again after a lock wait and applies the migration once the long transaction ended', async () => {
    const busy = await table('retry');
    const alter = file('retry', `alter table ${busy} add column extra int;`);
    const reader = await longReader(busy);
    const waits: number[] = [];
    const applied = await migrate(db, undefined, {
      files: [alter],
      lockWait: { timeoutMs: 50, attempts: 100, restMs: 10 },
      onLockBusy: async (_file, attempt) => {
        waits.push(attempt);
        reader.release();
        await reader.ended;
      },
    });
    expect(waits).toEqual([1]);
    expect(applied).toEqual([alter.name]);
    const columns =
      await db.sql`select 1 from information_schema.columns where table_name = ${busy} and column_name = 'extra'`;
    expect(columns.length).toBe(1);
  });

  it("releases a migration's locks before the next migration runs", async () => {
    const first = await table('first');
    const gate = 7_210_000 + (process.pid % 1000);
    const files = [
      file('first', `alter table ${first} add column extra int;`),
      // Waits for an advisory lock this test holds: the moment to look at who still holds the first table.
      file('second', `select pg_advisory_xact_lock(${gate});`),
    ];
    let open!: () => void;
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const holder = other.tx(async (tx) => {
      await tx.sql`select pg_advisory_xact_lock(${gate})`;
      await opened;
    });
    while (!(await db.sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${gate} and granted`).length)
      await Bun.sleep(20);
    const running = migrate(db, undefined, { files, lockWait: { timeoutMs: 60_000, attempts: 1, restMs: 0 } });
    // Until the second migration is waiting for the gate.
    while (
      !(await db.sql`select 1 from pg_locks where locktype = 'advisory' and objid = ${gate} and not granted`).length
    )
      await Bun.sleep(20);
    const heldOnFirst = await db.sql`
      select mode from pg_locks where relation = ${first}::regclass and mode = 'AccessExclusiveLock'`;
    open();
    await holder;
    expect(await running).toEqual(files.map((f) => f.name));
    expect(heldOnFirst).toEqual([]);
  });
});
