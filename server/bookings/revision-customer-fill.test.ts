import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { revisionCustomerFillPending } from './revision-customer-fill.ts';

const t = testAppPerFile();

describe('revisionCustomerFillPending', () => {
  it('says a start must name the backfill while the revisions wait for it, and not once it is done', async () => {
    // A database migrated here is small: migration 1260 filled it and marked it done.
    expect(await revisionCustomerFillPending(t.deps.db)).toBe(false);
    const rollback = new Error('rollback');
    let pending: boolean | undefined;
    await t.deps.db
      .tx(async (tx) => {
        // A database that held more than 100000 revisions at the migration, before the backfill ended.
        await tx.sql`update booking_revision_customer_fill set done = false`;
        pending = await revisionCustomerFillPending(tx);
        throw rollback;
      })
      .catch((err) => {
        if (err !== rollback) throw err;
      });
    expect(pending).toBe(true);
  });
});
