import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Db } from '../server/core/db/db.ts';
import { insertProperty } from '../server/properties/insert-property.ts';
import { EMBEDDED, startTestApp, type TestApp } from '../server/testing/harness.ts';
import { PropertyActors } from './property-actors.ts';

/**
 * A backlogged customer (turns waiting for a slot) yields to the others: while another customer's turn without a
 * backlog runs, each statement of the backlogged customer's turns waits, `yieldMs` at most. On two cores a storm's
 * three turns made a light customer's push 3x as slow although none of it queued (docs/performance.md,
 * "Fairness, fourth pass"). Turns are held open by promises here, so who waits for whom is deterministic.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A new customer with `count` live properties: its id and theirs. */
async function customer(count: number): Promise<{ id: number; properties: number[] }> {
  const [row] = await t.deps.db.sql<{ id: number }>`
    insert into customers (name) values (${`yield-${crypto.randomUUID()}`}) returning id`;
  const id = row?.id as number;
  const properties: number[] = [];
  for (let i = 0; i < count; i++) {
    const p = await insertProperty(t.deps.db, { customerId: id, name: `Yield ${i}`, currency: 'EUR', timezone: 'UTC' });
    properties.push(p.id);
  }
  return { id, properties };
}

function gate(): { open: () => void; opened: Promise<void> } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await Bun.sleep(2);
}

// Several turns hold a transaction at once: the embedded engine has one connection.
describe.skipIf(EMBEDDED)('a backlogged customer yields to customers without a backlog', () => {
  /**
   * The storm's customer runs one turn at a time and has a second one waiting; the light customer's turn is held
   * open. Then the storm's turn sends a statement: it must not reach the database before the light turn ends.
   */
  async function stormBesideLightTurn(
    actors: PropertyActors,
    heldMs: number,
    statement: (tx: Db) => Promise<unknown> = (tx) => tx.sql`select 1`,
  ): Promise<string[]> {
    const storm = await customer(2);
    const light = await customer(1);
    const order: string[] = [];
    const stormGo = gate();
    const lightInside = gate();
    const lightGo = gate();
    const stormTurn = (i: number) =>
      actors.run(storm.properties[i] as number, async (tx) => {
        if (i === 0) await stormGo.opened;
        await statement(tx);
        order.push(`storm ${i}`);
      });
    const stormTurns = [stormTurn(0)];
    await until(() => actors.running(storm.id) === 1);
    stormTurns.push(stormTurn(1));
    await until(() => actors.waiting(storm.id) === 1);
    const lightTurn = actors.run(light.properties[0] as number, async (tx) => {
      await tx.sql`select 1`;
      lightInside.open();
      await lightGo.opened;
      order.push('light');
    });
    await lightInside.opened;
    stormGo.open();
    await Bun.sleep(heldMs);
    lightGo.open();
    await Promise.all([...stormTurns, lightTurn]);
    return order;
  }

  // Every way a turn sends a statement: the calendar writers' upserts go through `affected`.
  const STATEMENTS: Record<string, (tx: Db) => Promise<unknown>> = {
    sql: (tx) => tx.sql`select 1`,
    query: (tx) => tx.query('select 1'),
    affected: (tx) => tx.affected`select 1`,
  };
  it.each(Object.keys(STATEMENTS))(
    "holds the storm's next statement (Db.%s) until the light customer's turn ends",
    async (method) => {
      const order = await stormBesideLightTurn(
        new PropertyActors(t.deps.db, 1, 60_000),
        200,
        STATEMENTS[method] as (tx: Db) => Promise<unknown>,
      );
      expect(order).toEqual(['light', 'storm 0', 'storm 1']);
    },
  );

  it('lets the storm go on without yielding when yieldMs is 0', async () => {
    const order = await stormBesideLightTurn(new PropertyActors(t.deps.db, 1, 0), 200);
    expect(order).toEqual(['storm 0', 'storm 1', 'light']);
  });

  it('waits at most yieldMs a statement: a storm progresses beside a light turn that never ends', async () => {
    const order = await stormBesideLightTurn(new PropertyActors(t.deps.db, 1, 20), 1000);
    expect(order).toEqual(['storm 0', 'storm 1', 'light']);
  });

  it('never holds a storming customer alone, nor a customer without a backlog', async () => {
    const actors = new PropertyActors(t.deps.db, 1, 60_000);
    const storm = await customer(4);
    const t0 = performance.now();
    await Promise.all(storm.properties.map((p) => actors.run(p, (tx) => tx.sql`select 1`)));
    // Two customers without a backlog, each beside the other's held turn.
    const a = await customer(1);
    const b = await customer(1);
    const held = gate();
    const aTurn = actors.run(a.properties[0] as number, async (tx) => {
      await tx.sql`select 1`;
      await held.opened;
    });
    await until(() => actors.running(a.id) === 1);
    await actors.run(b.properties[0] as number, (tx) => tx.sql`select 1`);
    held.open();
    await aTurn;
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});
