import type { Db } from '../core/db/db.ts';

/** A group of a customer's properties; pausing it takes them out of account-scoped allow-lists. */
export interface PropertyGroupRow {
  id: number;
  customer_id: number;
  name: string;
  paused: boolean;
}

export async function createPropertyGroup(db: Db, customerId: number, name: string): Promise<PropertyGroupRow> {
  const [row] = await db.sql<PropertyGroupRow>`
    insert into property_groups (customer_id, name) values (${customerId}, ${name}) returning *`;
  if (!row) throw new Error('property group insert returned no row');
  return row;
}

/** Undefined when there is no such group. */
export async function setGroupPaused(db: Db, id: number, paused: boolean): Promise<PropertyGroupRow | undefined> {
  const [row] =
    await db.sql<PropertyGroupRow>`update property_groups set paused = ${paused} where id = ${id} returning *`;
  return row;
}

export async function setPropertyGroup(db: Db, propertyId: number, groupId: number): Promise<void> {
  await db.sql`update properties set group_id = ${groupId} where id = ${propertyId}`;
}
