import type { PropertyRow } from '../core/resolve.ts';
import { insertProperty } from '../properties/insert-property.ts';
import type { TestApp } from '../testing/harness.ts';
import { createRoomType, type NewRoomType, type RoomTypeRecord } from './service.ts';

/**
 * A customer with properties and room types built through the domain services (not the demo's shape), and
 * an OAuth token allowed on all of them with the structure scopes.
 */
export interface StructureFixture {
  token: string;
  properties: { property: PropertyRow; rooms: RoomTypeRecord[] }[];
}

export const DOUBLE: NewRoomType = { name: 'Double Room', partnerCode: 'DBL', regularBeds: 2, extraBeds: 1 };
export const APARTMENT: NewRoomType = { name: 'Apartment', kind: 'apartment', partnerCode: 'APT', regularBeds: 4 };

let seq = 0;

export async function structureFixture(
  t: TestApp,
  roomsPerProperty: readonly (readonly NewRoomType[])[],
): Promise<StructureFixture> {
  const db = t.deps.db;
  const [customer] = await db.sql<{ id: number }>`
    insert into customers (name) values (${`Structure Fixture ${process.pid}-${++seq}`}) returning id`;
  if (!customer) throw new Error('customer insert returned no row');
  const properties = [];
  for (const [i, rooms] of roomsPerProperty.entries()) {
    const property = await insertProperty(db, {
      customerId: customer.id,
      name: `Fixture Hotel ${i + 1}`,
      currency: 'EUR',
      timezone: 'Europe/Lisbon',
      partnerCode: `P${i + 1}`,
    });
    const created = await db.tx(async (tx) => {
      const out: RoomTypeRecord[] = [];
      for (const room of rooms) out.push(await createRoomType(tx, property, room));
      return out;
    });
    properties.push({ property, rooms: created });
  }
  const { token } = await t.client({
    customer_id: customer.id,
    scopes: ['properties.manage', 'inventory.read'],
    property_ids: properties.map((p) => p.property.external_id),
  });
  return { token, properties };
}
