import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/**
 * Db.affected answers a write's count from its command tag, on both backends: the calendar writers' written
 * counts (and so every push's written/unchanged answer) come from it. An upsert's WHERE that leaves a
 * conflicting row alone must not count it.
 */
const backends: [string, () => Promise<Db>][] = [['embedded', () => openPglite(undefined)]];
if (process.env.DATABASE_URL)
  backends.push([
    'PostgreSQL',
    async () =>
      // Through a transaction pooler (npm run test:pooler) the session URL tells the pool so.
      openPostgres(process.env.DATABASE_URL as string, {
        timeoutMs: 5000,
        sessionUrl: process.env.DATABASE_SESSION_URL,
      }),
  ]);

describe.each(backends)('Db.affected on %s', (_, open) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
    await db.query('drop table if exists qc_affected_test');
    await db.query('create table qc_affected_test (id int primary key, v int not null)');
  });
  afterAll(async () => {
    await db.query('drop table qc_affected_test');
    await db.close();
  });

  const upsert = (handle: Db, ids: number[], values: number[]) =>
    handle.affected`
      insert into qc_affected_test as t (id, v) select * from unnest(${ids}::int[], ${values}::int[])
      on conflict (id) do update set v = excluded.v where t.v is distinct from excluded.v`;

  it('counts the rows an upsert inserted or updated, not those its WHERE left alone', async () => {
    await db.tx(async (tx) => {
      expect(await upsert(tx, [1, 2, 3], [10, 20, 30])).toBe(3);
      // 1 left alone by the WHERE, 2 updated, 4 inserted.
      expect(await upsert(tx, [1, 2, 4], [10, 21, 40])).toBe(2);
      expect(await upsert(tx, [1, 2, 4], [10, 21, 40])).toBe(0);
      expect(await tx.affected`update qc_affected_test set v = v + 1 where id > ${1}`).toBe(3);
      expect(await tx.affected`delete from qc_affected_test where id in (${1}, ${2})`).toBe(2);
    });
  });

  it('counts outside a transaction and under a savepoint too', async () => {
    await db.query('truncate qc_affected_test');
    expect(await upsert(db, [1, 2], [1, 2])).toBe(2);
    await db.tx((tx) =>
      tx.savepoint(async (sp) => {
        expect(await upsert(sp, [1, 2, 3], [1, 5, 3])).toBe(2);
      }),
    );
    expect(await db.sql<{ v: number }>`select v from qc_affected_test order by id`).toEqual([
      { v: 1 },
      { v: 5 },
      { v: 3 },
    ]);
  });
});
