import { describe, expect, it } from 'bun:test';
import type { Db } from '../core/db/db.ts';
import { testAppPerFile } from '../testing/harness.ts';

/**
 * The calendar's partition keys keep no posting lists (migration 1141): a key that merged a row's versions
 * into one posting list kept its dead versions until VACUUM, and every read of the property visited them.
 */
const t = testAppPerFile();
const db = (): Db => t.deps.db;

/** The key indexes of the calendar's partitions whose deduplication is not off. */
async function keysWithDedup(): Promise<string[]> {
  const rows = await db().sql<{ name: string }>`
    select i.indexrelid::regclass::text as name from pg_inherits h
    join pg_class parent on parent.oid = h.inhparent
    join pg_index i on i.indrelid = h.inhrelid
    join pg_class ic on ic.oid = i.indexrelid
    where parent.relname in ('availability', 'rates', 'restrictions')
      and not coalesce('deduplicate_items=off' = any(ic.reloptions), false)`;
  return rows.map((r) => r.name);
}

describe('calendar month partitions', () => {
  it('creates each month with its key deduplication off, as every existing partition has it', async () => {
    expect(await keysWithDedup()).toEqual([]);
    await db().sql`select qc_calendar_months('', '1997-03-01'::date, '1997-03-01'::date)`;
    try {
      const [created] = await db().sql<{ n: number }>`
        select count(*)::int as n from pg_class where relname in
          ('availability_y1997m03_pkey', 'rates_y1997m03_pkey', 'restrictions_y1997m03_pkey')`;
      expect(created?.n).toBe(3);
      expect(await keysWithDedup()).toEqual([]);
    } finally {
      await db().query('drop table if exists availability_y1997m03, rates_y1997m03, restrictions_y1997m03');
    }
  });
});
