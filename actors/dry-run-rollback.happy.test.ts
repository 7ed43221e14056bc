import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { startTestApp, type TestApp } from '../server/testing/harness.ts';
import { dryRun } from './dry-run.ts';
import { PropertyActors } from './property-actors.ts';

/** A dry run does the real work in the property's turn and keeps none of it. */
let t: TestApp;
let actors: PropertyActors;

beforeAll(async () => {
  t = await startTestApp();
  actors = new PropertyActors(t.deps.db);
  await t.deps.db.sql`create table if not exists dry_run_test_log (property int, seq int)`;
});

afterAll(async () => {
  await t.deps.db.sql`drop table if exists dry_run_test_log`;
  await t.close();
});

const logged = async (property: number) =>
  (
    await t.deps.db.sql<{ seq: number }>`select seq from dry_run_test_log where property = ${property} order by seq`
  ).map((r) => r.seq);

const heldLocks = async (property: number) => {
  const [row] = await t.deps.db.sql<{ n: number }>`
    select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 7210 and objid = ${property}`;
  return row?.n;
};

describe('dry runs', () => {
  it('answers what the work saw and wrote, then keeps nothing and holds no lock', async () => {
    const property = 300_001;
    const seen = await actors.dryRun(property, async (tx) => {
      await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 1), (${property}, 2)`;
      const [row] = await tx.sql<{
        n: number;
      }>`select count(*)::int as n from dry_run_test_log where property = ${property}`;
      return row?.n;
    });
    expect(seen).toBe(2);
    expect(await logged(property)).toEqual([]);
    expect(await heldLocks(property)).toBe(0);
  });

  it('inside a turn, rolls back only its own part: the turn goes on and commits the rest', async () => {
    const property = 300_002;
    await actors.run(property, async (tx) => {
      await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 1)`;
      await dryRun(tx, (tx) => tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 2)`);
      await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 3)`;
    });
    expect(await logged(property)).toEqual([1, 3]);
  });

  it('rolls back and rethrows when the work fails, even on a database error, and the turn can go on', async () => {
    const property = 300_003;
    await actors.run(property, async (tx) => {
      await expect(
        dryRun(tx, async (tx) => {
          await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 1)`;
          await tx.sql`select 1 / 0`;
        }),
      ).rejects.toThrow();
      await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 2)`;
    });
    expect(await logged(property)).toEqual([2]);
  });

  it('nests: an inner dry run inside an outer one leaves nothing either', async () => {
    const property = 300_004;
    await actors.dryRun(property, async (tx) => {
      await tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 1)`;
      await actors.dryRun(
        property,
        (tx) => tx.sql`insert into dry_run_test_log (property, seq) values (${property}, 2)`,
      );
      expect((await tx.sql`select seq from dry_run_test_log where property = ${property}`).length).toBe(1);
    });
    expect(await logged(property)).toEqual([]);
  });
});
