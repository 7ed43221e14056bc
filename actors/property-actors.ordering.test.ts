import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { EMBEDDED, startTestApp, type TestApp } from '../server/testing/harness.ts';
import { PropertyActors } from './property-actors.ts';

let t: TestApp;
let actors: PropertyActors;

beforeAll(async () => {
  t = await startTestApp();
  actors = new PropertyActors(t.deps.db);
  await t.deps.db
    .sql`create table if not exists actor_test_log (property int, seq int, at timestamptz default clock_timestamp())`;
});

afterAll(async () => {
  await t.deps.db.sql`drop table if exists actor_test_log`;
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('property actors', () => {
  it('applies writes to one property one at a time in arrival order', async () => {
    const property = 900_000 + Math.floor(Math.random() * 1000);
    const order: number[] = [];
    // Earlier turns sleep longer: without serialization later ones would finish first.
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        actors.run(property, async (tx) => {
          await sleep(40 - i * 8);
          await tx.sql`insert into actor_test_log (property, seq) values (${property}, ${i})`;
          order.push(i);
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3, 4]);
    const rows = await t.deps.db.sql<{
      seq: number;
    }>`select seq from actor_test_log where property = ${property} order by at`;
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  // Four turns hold a transaction each at once: the embedded engine runs one at a time, by design.
  it.skipIf(EMBEDDED)('runs different properties in parallel', async () => {
    // Each turn waits until all four have entered: serialized turns would never get there (the test times out).
    const properties = [1, 2, 3, 4];
    let entered = 0;
    let allEntered: () => void = () => {};
    const everyoneInside = new Promise<void>((resolve) => {
      allEntered = resolve;
    });
    const inside = await Promise.all(
      properties.map((p) =>
        actors.run(800_000 + p, async () => {
          if (++entered === properties.length) allEntered();
          await everyoneInside;
          return entered;
        }),
      ),
    );
    expect(inside).toEqual([4, 4, 4, 4]);
  });

  it('keeps going after a failed turn and rolls that turn back', async () => {
    const property = 700_001;
    const failing = actors.run(property, async (tx) => {
      await tx.sql`insert into actor_test_log (property, seq) values (${property}, 1)`;
      throw new Error('boom');
    });
    const next = actors.run(property, async (tx) => {
      await tx.sql`insert into actor_test_log (property, seq) values (${property}, 2)`;
      return 'done';
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('done');
    const rows = await t.deps.db.sql<{ seq: number }>`select seq from actor_test_log where property = ${property}`;
    expect(rows.map((r) => r.seq)).toEqual([2]);
  });

  it('releases idle mailboxes', async () => {
    await actors.run(600_001, async () => {});
    await actors.drain();
    expect(actors.size).toBe(0);
  });

  it('runs a re-entrant call for the same property inside the current turn', async () => {
    const result = await actors.run(500_001, () => actors.run(500_001, async () => 'inner'));
    expect(result).toBe('inner');
  });

  it('serializes two actor systems (two processes) on one database through the advisory lock', async () => {
    const other = new PropertyActors(t.deps.db);
    const property = 400_001;
    let inside = 0;
    let overlap = false;
    const work = async () => {
      inside++;
      if (inside > 1) overlap = true;
      await sleep(30);
      inside--;
    };
    await Promise.all([
      actors.run(property, work),
      other.run(property, work),
      actors.run(property, work),
      other.run(property, work),
    ]);
    expect(overlap).toBe(false);
  });
});
