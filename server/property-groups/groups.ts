import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { isUuid } from '../core/resolve.ts';

/** A group of a customer's properties; pausing it takes them out of every credential's allow-list at once. */
export interface PropertyGroupRow {
  id: number;
  external_id: string;
  customer_id: number;
  name: string;
  paused: boolean;
  created_at: Date;
}

/** A group with the external ids of its properties, as the partner API shows it. */
export interface PropertyGroupWithMembers extends PropertyGroupRow {
  property_ids: string[];
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

/**
 * Puts the property in the group when the group is its own customer's; false (nothing changed) for a group of
 * another customer or none: a group's pause drops its properties from every allow-list, so a property in another
 * customer's group would be paused by that customer, and listed among its group's members.
 */
export async function setPropertyGroup(db: Db, propertyId: number, groupId: number): Promise<boolean> {
  const moved = await db.sql`update properties p set group_id = g.id from property_groups g
    where p.id = ${propertyId} and g.id = ${groupId} and g.customer_id = p.customer_id returning p.id`;
  return moved.length === 1;
}

const WITH_MEMBERS = `g.*, array(select p.external_id::text from properties p where p.group_id = g.id
  order by p.created_at, p.id) as property_ids`;

/** One page of the customer's groups, oldest first, and how many there are. */
export async function listGroups(db: Db, customerId: number, page: number, perPage: number) {
  const rows = await db.query<PropertyGroupWithMembers & { total: number }>(
    `select ${WITH_MEMBERS}, count(*) over ()::int as total from property_groups g
     where g.customer_id = $1 order by g.id limit $2 offset $3`,
    [customerId, perPage, (page - 1) * perPage],
  );
  return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]?.total ?? 0 };
}

/** The customer's group with this external id; 404 for another customer's, a missing one or a malformed id. */
export async function resolveGroup(db: Db, customerId: number, segment: string): Promise<PropertyGroupWithMembers> {
  if (!isUuid(segment)) throw notFound();
  const [row] = await db.query<PropertyGroupWithMembers>(
    `select ${WITH_MEMBERS} from property_groups g where g.customer_id = $1 and g.external_id = $2::uuid`,
    [customerId, segment.toLowerCase()],
  );
  if (!row) throw notFound();
  return row;
}

/**
 * Applies a partner's change to a group in one transaction: its name, whether it is paused, and (when given) its
 * members: exactly these properties (internal ids, already resolved among the customer's), the others leaving it.
 */
export async function changeGroup(
  tx: Db,
  group: PropertyGroupRow,
  change: { name?: string; paused?: boolean; propertyIds?: readonly number[] },
): Promise<void> {
  await tx.sql`update property_groups set name = ${change.name ?? group.name}, paused = ${change.paused ?? group.paused}
    where id = ${group.id}`;
  if (!change.propertyIds) return;
  const ids = [...change.propertyIds];
  await tx.sql`update properties set group_id = null where group_id = ${group.id} and not (id = any(${ids}::bigint[]))`;
  await tx.sql`update properties set group_id = ${group.id} where id = any(${ids}::bigint[])`;
}
