import type { TestApp } from '../../testing/harness.ts';

/**
 * Keyed writes in the idempotency tests go to POST /properties: its unique partner code makes "written once"
 * countable, and lets a test hold a request in flight on the unique index.
 */
let codes = 0;

/** A POST /properties body with a partner code no other test uses. */
export const newPropertyBody = (codePrefix: string, name = 'Keyed Hotel') => ({
  name,
  type_id: 1,
  currency: 'EUR',
  timezone: 'Europe/Lisbon',
  partner_code: `${codePrefix}-${Date.now()}-${++codes}`,
});

/** How many properties carry `code` (1 after a write that happened once). */
export async function countPartnerCode(t: TestApp, code: string): Promise<number> {
  return Number(
    (await t.deps.db.sql<{ n: number }>`select count(*)::int as n from properties where partner_code = ${code}`)[0]?.n,
  );
}

/**
 * Holds inserts of `code` for this customer until the returned release() (which waits for the holder to end);
 * the holding row is rolled back.
 */
export async function holdPartnerCode(t: TestApp, customerId: number, code: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const done = t.deps.db
    .tx(async (tx) => {
      await tx.sql`insert into properties (customer_id, name, currency, timezone, partner_code)
        values (${customerId}, 'holder', 'EUR', 'Europe/Lisbon', ${code})`;
      held();
      await released;
      throw new Error('roll back the holder');
    })
    .catch(() => {});
  await holding;
  return async () => {
    release();
    await done;
  };
}
