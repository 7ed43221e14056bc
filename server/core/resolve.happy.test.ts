import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import type { Db } from './db/db.ts';
import { ApiError } from './http/api-error.ts';
import {
  findChildren,
  findProperties,
  type PropertyScope,
  resolveProperty,
  resolveRatePlan,
  resolveRoomType,
  SegmentIndex,
} from './resolve.ts';

/**
 * The one resolver's rule (spec 1.6): external id first, partner code second; external ids in any case,
 * partner codes exactly; property codes per customer, child codes per property; the allow-list hides the rest.
 */
let db: Db;

interface Made {
  id: number;
  external_id: string;
}

async function customer(): Promise<number> {
  const [row] = await db.sql<{ id: number }>`insert into customers (name) values ('Resolver Test') returning id`;
  if (!row) throw new Error('no customer');
  return row.id;
}

async function property(customerId: number, partnerCode: string | null): Promise<Made> {
  const [row] = await db.sql<Made>`
    insert into properties (customer_id, name, currency, timezone, partner_code)
    values (${customerId}, 'Resolver Hotel', 'EUR', 'Europe/Lisbon', ${partnerCode}) returning id, external_id`;
  if (!row) throw new Error('no property');
  return row;
}

async function roomType(propertyId: number, partnerCode: string): Promise<Made> {
  const [row] = await db.sql<Made>`
    insert into room_types (property_id, name, partner_code, qty, regular_beds, extra_beds)
    values (${propertyId}, 'Room', ${partnerCode}, 1, 2, 0) returning id, external_id`;
  if (!row) throw new Error('no room type');
  return row;
}

async function ratePlan(propertyId: number, partnerCode: string): Promise<Made> {
  const [row] = await db.sql<Made>`
    insert into rate_plans (property_id, name, sell_type, partner_code)
    values (${propertyId}, 'Plan', 'per_room', ${partnerCode}) returning id, external_id`;
  if (!row) throw new Error('no rate plan');
  return row;
}

const scopeOf = (customerId: number, ...allowed: Made[]): PropertyScope => ({
  customerId,
  propertyIds: new Set(allowed.map((p) => p.id)),
});

async function notFoundKey(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err instanceof ApiError ? err.key : String(err);
  }
}

const t = testAppPerFile();
beforeAll(async () => {
  db = t.deps.db;
});

describe('properties', () => {
  it('resolves an external id in any letter case and a partner code only exactly', async () => {
    const c = await customer();
    const p = await property(c, 'Seaside');
    const scope = scopeOf(c, p);
    expect((await resolveProperty(db, scope, p.external_id.toUpperCase())).id).toBe(p.id);
    expect((await resolveProperty(db, scope, 'Seaside')).id).toBe(p.id);
    expect(await notFoundKey(resolveProperty(db, scope, 'seaside'))).toBe('errors.not_found');
  });

  it("tries the external id before the partner code when a code spells another property's id", async () => {
    const c = await customer();
    const named = await property(c, null);
    const impostor = await property(c, named.external_id);
    const scope = scopeOf(c, named, impostor);
    expect((await resolveProperty(db, scope, named.external_id)).id).toBe(named.id);
  });

  it("does not resolve another customer's partner code, and hides properties outside the allow-list", async () => {
    const mine = await customer();
    const theirs = await customer();
    const own = await property(mine, 'SHARED');
    const other = await property(theirs, 'SHARED');
    expect((await resolveProperty(db, scopeOf(mine, own), 'SHARED')).id).toBe(own.id);
    expect(await notFoundKey(resolveProperty(db, scopeOf(mine, own), other.external_id))).toBe('errors.not_found');
    expect(await notFoundKey(resolveProperty(db, scopeOf(mine), 'SHARED'))).toBe('errors.not_found');
    expect(await notFoundKey(resolveProperty(db, scopeOf(mine), own.external_id))).toBe('errors.not_found');
  });

  it('resolves a batch in the order given, undefined for each unknown entry, and without an allow-list for operators', async () => {
    const c = await customer();
    const a = await property(c, 'A');
    const b = await property(c, 'B');
    const found = await findProperties(db, scopeOf(c, a), ['B', a.external_id, 'A', 'nope']);
    expect(found.map((r) => r?.id)).toEqual([undefined, a.id, a.id, undefined]);
    const operator = await findProperties(db, { customerId: c }, ['B', 'A']);
    expect(operator.map((r) => r?.id)).toEqual([b.id, a.id]);
    expect(await findProperties(db, { customerId: c }, [])).toEqual([]);
  });
});

describe('room types and rate plans', () => {
  it('resolves on the given property only, by external id in any case or exact partner code', async () => {
    const c = await customer();
    const p = await property(c, null);
    const q = await property(c, null);
    const room = await roomType(p.id, 'DBL');
    await roomType(q.id, 'TWN');
    const plan = await ratePlan(p.id, 'BAR');
    expect((await resolveRoomType(db, p.id, room.external_id.toUpperCase())).id).toBe(room.id);
    expect((await resolveRoomType(db, p.id, 'DBL')).id).toBe(room.id);
    expect(await notFoundKey(resolveRoomType(db, p.id, 'dbl'))).toBe('errors.not_found');
    expect(await notFoundKey(resolveRoomType(db, p.id, 'TWN'))).toBe('errors.not_found');
    expect((await resolveRatePlan(db, p.id, 'BAR')).id).toBe(plan.id);
    expect(await notFoundKey(resolveRatePlan(db, p.id, room.external_id))).toBe('errors.not_found');
  });

  it('never resolves a soft-deleted record', async () => {
    const c = await customer();
    const p = await property(c, null);
    const room = await roomType(p.id, 'GONE');
    await db.sql`update room_types set deleted_at = now() where id = ${room.id}`;
    expect(await notFoundKey(resolveRoomType(db, p.id, 'GONE'))).toBe('errors.not_found');
  });

  it('resolves a batch across properties, the first listed property winning a shared code', async () => {
    const c = await customer();
    const p = await property(c, null);
    const q = await property(c, null);
    const onP = await roomType(p.id, 'STD');
    const onQ = await roomType(q.id, 'STD');
    const only = await roomType(q.id, 'SUITE');
    const found = await findChildren(db, 'room_types', [q.id, p.id], ['STD', only.external_id, onP.external_id, 'X']);
    expect(found.map((r) => r?.id)).toEqual([onQ.id, only.id, onP.id, undefined]);
  });
});

describe('records in memory', () => {
  it('follows the same rule: external id first in any case, then the exact code', () => {
    const id = '6f1c2b9e-0a6b-4c1e-9d1f-2a3b4c5d6e7f';
    const records = [
      { external_id: 'aaaaaaaa-0000-4000-8000-000000000000', partner_code: id },
      { external_id: id, partner_code: 'X' },
    ];
    const index = new SegmentIndex<(typeof records)[number]>((r) => r);
    for (const record of records) index.add(record);
    expect(index.find(id.toUpperCase())).toBe(records[1]);
    expect(index.find('X')).toBe(records[1]);
    expect(index.find('x')).toBeUndefined();
  });
});
