import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { insertProperty } from '../server/properties/insert-property.ts';
import { startTestApp, type TestApp } from '../server/testing/harness.ts';
import { openCalendarTurn } from './calendar-property.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('openCalendarTurn', () => {
  it('reads the property and turns JIT off for the rest of its transaction only', async () => {
    const demo = await t.demo();
    const property = await insertProperty(t.deps.db, {
      customerId: demo.customer_id,
      name: 'Turn Hotel',
      currency: 'EUR',
      timezone: 'UTC',
      mode: 'live',
    });
    const jit = async (db: typeof t.deps.db) =>
      (await db.sql<{ jit: string }>`select current_setting('jit') as jit`)[0]?.jit;
    const before = await jit(t.deps.db);
    const during = await t.deps.db.tx(async (tx) => {
      const read = await openCalendarTurn(tx, property.id);
      expect(read).toMatchObject({ id: property.id, external_id: property.external_id, mode: 'live' });
      return jit(tx);
    });
    expect(during).toBe('off');
    expect(await jit(t.deps.db)).toBe(before);
  });

  it('fails the turn when the property is gone', async () => {
    await expect(t.deps.db.tx((tx) => openCalendarTurn(tx, -1))).rejects.toThrow('vanished');
  });
});
