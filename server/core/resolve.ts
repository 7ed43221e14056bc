import type { Principal } from './auth/principal.ts';
import type { Db } from './db/db.ts';
import { notFound } from './http/api-error.ts';

/**
 * The one way to turn a URL segment into a record (spec 1, item 6): the external id is tried first, the
 * partner code second. A property outside the token's allow-list is indistinguishable from a missing one.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a segment has the form of an external id (else it can only be a partner code). */
export function isUuid(segment: string): boolean {
  return UUID.test(segment);
}

export interface PropertyRow {
  id: number;
  external_id: string;
  customer_id: number;
  group_id: number | null;
  name: string;
  name_tr: Record<string, string>;
  currency: string;
  timezone: string;
  mode: 'shadow' | 'live';
  partner_code: string | null;
  partner_name: string | null;
  type_id: number | null;
  status: 'active' | 'disabled';
}

export interface RoomTypeRow {
  id: number;
  external_id: string;
  property_id: number;
  partner_code: string | null;
  [column: string]: unknown;
}

export interface RatePlanRow {
  id: number;
  external_id: string;
  property_id: number;
  parent_id: number | null;
  sell_type: 'per_room' | 'per_person' | 'per_occupancy';
  partner_code: string | null;
  [column: string]: unknown;
}

export async function resolveProperty(db: Db, principal: Principal, segment: string): Promise<PropertyRow> {
  const rows = isUuid(segment)
    ? await db.sql<PropertyRow>`select * from properties where external_id = ${segment}
        or (partner_code = ${segment} and customer_id = ${principal.customerId})
        order by (external_id::text = ${segment.toLowerCase()}) desc limit 1`
    : await db.sql<PropertyRow>`select * from properties
        where partner_code = ${segment} and customer_id = ${principal.customerId} limit 1`;
  const row = rows[0];
  if (!row || !principal.propertyIds.has(row.id)) throw notFound();
  return row;
}

export async function resolveRoomType(db: Db, propertyId: number, segment: string): Promise<RoomTypeRow> {
  const row = await resolveChild<RoomTypeRow>(db, 'room_types', propertyId, segment);
  if (!row) throw notFound();
  return row;
}

export async function resolveRatePlan(db: Db, propertyId: number, segment: string): Promise<RatePlanRow> {
  const row = await resolveChild<RatePlanRow>(db, 'rate_plans', propertyId, segment);
  if (!row) throw notFound();
  return row;
}

/** Room type or rate plan by external id first, partner code second; undefined when neither matches. */
export async function resolveChild<T>(
  db: Db,
  table: 'room_types' | 'rate_plans',
  propertyId: number,
  segment: string,
): Promise<T | undefined> {
  if (isUuid(segment)) {
    const [byId] = await db.query<T>(
      `select * from ${table} where external_id = $1 and property_id = $2 and deleted_at is null`,
      [segment, propertyId],
    );
    if (byId) return byId;
  }
  const [byCode] = await db.query<T>(
    `select * from ${table} where partner_code = $1 and property_id = $2 and deleted_at is null`,
    [segment, propertyId],
  );
  return byCode;
}
