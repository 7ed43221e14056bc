import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import postgres from 'postgres';
import { freePortRun } from '../../server/testing/free-port.ts';
import { type PgBouncer, startPgBouncer } from './pgbouncer.ts';
import { type PostgresPair, startPostgresPair } from './postgres.ts';

// initdb, pg_basebackup and a promotion take seconds on a loaded machine.
setDefaultTimeout(120_000);

// Three ports in the pooler's range (21000-21999): the pair on BASE/BASE+1, PgBouncer on BASE+2.
const BASE = freePortRun(21000, 21999, 3);
const DB = 'qc_pooler_pair';

describe('a PostgreSQL pair with a synchronous standby, and PgBouncer in front', () => {
  let pair: PostgresPair | undefined;
  let bouncer: PgBouncer | undefined;
  afterAll(async () => {
    await bouncer?.stop();
    await pair?.stop();
  });

  test('a commit on the primary is on the standby at once; after kill -9 and promotion the multi-host URL and a retargeted PgBouncer write again', async () => {
    pair = await startPostgresPair({ port: BASE, synchronous: true, databases: [DB] });
    bouncer = await startPgBouncer({ port: BASE + 2, upstream: { port: pair.primaryPort } });
    const primary = postgres(pair.primaryUrl(DB), { max: 1, onnotice: () => {} });
    await primary`create table t (n int)`;
    await primary`insert into t values (1)`;
    await primary.end();
    // Synchronous: the row is on the standby once COMMIT returned, without waiting.
    const standby = postgres(pair.standbyUrl(DB), { max: 1 });
    expect((await standby`select n from t`).map((r) => r.n)).toEqual([1]);
    expect((await standby`select pg_is_in_recovery() as r`)[0]?.r).toBe(true);
    await standby.end();

    await pair.killPrimary();
    await pair.promote();
    const multi = postgres(pair.multiHostUrl(DB), { max: 1 });
    await multi`insert into t values (2)`;
    expect((await multi`select n from t order by n`).map((r) => r.n)).toEqual([1, 2]);
    await multi.end();

    await bouncer.retarget({ port: pair.standbyPort as number });
    const pooled = postgres(bouncer.url(DB), { max: 2, prepare: false, onnotice: () => {} });
    await pooled`insert into t values (3)`;
    expect((await pooled`select current_setting('port') as p`)[0]?.p).toBe(String(pair.standbyPort));
    await pooled.end();
  });

  test('PgBouncer restarts on its port and a client reconnects', async () => {
    if (!bouncer) throw new Error('the first test did not start PgBouncer');
    const sql = postgres(bouncer.url(DB), { max: 1, prepare: false, onnotice: () => {} });
    expect((await sql`select count(*)::int as n from t`)[0]?.n).toBe(3);
    await bouncer.restart();
    // The client's connection died with the restart: the next query may fail, the one after reconnects.
    await sql`select 1`.catch(() => {});
    expect((await sql`select count(*)::int as n from t`)[0]?.n).toBe(3);
    await sql.end();
  });
});
