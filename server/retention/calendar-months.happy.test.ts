import { describe, expect, it } from 'bun:test';
import type { Db } from '../core/db/db.ts';
import { testAppPerFile } from '../testing/harness.ts';

/**
 * The calendar's partition keys keep no posting lists (migration 1141): a key that merged a row's versions
 * into one posting list kept its dead versions until VACUUM, and every read of the property visited them.
 * Availability's pages keep half their room free (migration 1142): a push rewrites all of a property's rows in
 * one statement, and only a page with room for all their new versions keeps them in place.
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

/** Each calendar partition's fillfactor, by parent table. */
async function fillfactors(): Promise<Record<string, string[]>> {
  const rows = await db().sql<{ parent: string; fill: string }>`
    select parent.relname as parent, coalesce(
      (select o from unnest(c.reloptions) o where o like 'fillfactor=%'), 'fillfactor=100') as fill
    from pg_inherits h join pg_class parent on parent.oid = h.inhparent join pg_class c on c.oid = h.inhrelid
    where parent.relname in ('availability', 'rates', 'restrictions')`;
  const out: Record<string, string[]> = {};
  for (const r of rows) out[r.parent] = [...new Set([...(out[r.parent] ?? []), r.fill])];
  return out;
}

describe('calendar month partitions', () => {
  it('creates availability months half empty and the price and restriction months at 70, as existing ones are', async () => {
    const expected = {
      availability: ['fillfactor=50'],
      rates: ['fillfactor=70'],
      restrictions: ['fillfactor=70'],
    };
    expect(await fillfactors()).toEqual(expected);
    await db().sql`select qc_calendar_months('', '1997-04-01'::date, '1997-04-01'::date)`;
    try {
      const [created] = await db().sql<{ n: number }>`
        select count(*)::int as n from pg_class where relname in ('availability_y1997m04', 'rates_y1997m04')`;
      expect(created?.n).toBe(2);
      expect(await fillfactors()).toEqual(expected);
    } finally {
      await db().query('drop table if exists availability_y1997m04, rates_y1997m04, restrictions_y1997m04');
    }
  });

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
