import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import postgres from 'postgres';
import { WriteOutcomeUnknown } from './db.ts';
import { openPostgres } from './postgres.ts';

/**
 * A pool destroyed while a transaction's COMMIT is in flight (the replacement of a wedged pool ends the old one at
 * once; close() after its grace) fails that COMMIT with postgres.js's CONNECTION_DESTROYED, which was read as "never
 * sent", so the caller heard 503 service_unavailable, "not applied", for a COMMIT PostgreSQL then completed. A
 * deferred trigger holds the COMMIT on the server past close()'s 5 s grace, so the destruction meets it in flight.
 */
const url = process.env.DATABASE_URL;
const TABLE = `destroyed_commit_${process.pid}`;

describe.skipIf(!url)('a COMMIT in flight when its pool is destroyed', () => {
  let admin: postgres.Sql;
  beforeAll(async () => {
    admin = postgres(process.env.DATABASE_SESSION_URL ?? (url as string), { max: 1, onnotice: () => {} });
    await admin.unsafe(`
      create table ${TABLE} (id int);
      create function ${TABLE}_slow() returns trigger language plpgsql as $$
        begin perform pg_sleep(5.5); return null; end $$;
      create constraint trigger slow_commit after insert on ${TABLE} deferrable initially deferred
        for each row execute function ${TABLE}_slow();`);
  });
  afterAll(async () => {
    await admin.unsafe(`drop table if exists ${TABLE}; drop function if exists ${TABLE}_slow();`);
    await admin.end();
  });

  it('answers write_outcome_unknown, and the write did commit', async () => {
    const db = openPostgres(url as string, { max: 1, timeoutMs: 20_000, sessionUrl: process.env.DATABASE_SESSION_URL });
    const write = db
      .tx(async (tx) => {
        await tx.query(`insert into ${TABLE} values (1)`);
      })
      .then(
        () => 'answered',
        (err: unknown) => err,
      );
    // The COMMIT is on the server, running the deferred trigger.
    for (let i = 0; i < 100; i++) {
      const [waiting] = await admin<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where query ilike 'commit%' and wait_event = 'PgSleep'`;
      if (waiting?.n) break;
      await Bun.sleep(50);
    }
    await db.close();
    expect(await write).toBeInstanceOf(WriteOutcomeUnknown);
    let rows = 0;
    for (let i = 0; i < 60 && rows === 0; i++) {
      rows = (await admin.unsafe(`select count(*)::int as n from ${TABLE}`))[0]?.n;
      if (rows === 0) await Bun.sleep(100);
    }
    expect(rows).toBe(1);
  }, 30_000);
});
