import type { Db } from './db/db.ts';
import { notFound } from './http/api-error.ts';

/**
 * THE one way to turn a partner's reference (a URL segment, a body field, a list entry) into a record. No
 * other module selects by partner code (server/core/resolve.rule.test.ts fails on a second copy).
 *
 * The rule (spec 1, item 6), stated once:
 * - The external id is tried first, the partner code second: when a segment is some record's external id
 *   and another record's partner code, the external id wins.
 * - Case: an external id is a UUID and matches in any letter case (`ABC…` = `abc…`); a partner code matches
 *   exactly as stored (`dbl` ≠ `DBL`), because partners choose codes and may tell them apart by case.
 * - Scope: a property's partner code is unique within its customer, so property codes are looked up among
 *   the caller's customer only; room type and rate plan codes are unique within their property, so they are
 *   looked up among the given property (or properties) only. Soft-deleted room types and rate plans never match.
 * - Allow-list: a property outside the caller's allow-list is indistinguishable from a missing one; the
 *   single-record resolvers answer both with 404 `errors.not_found`, the `find…` variants with `undefined`
 *   so that a caller can raise its own key (e.g. 422 subscription.unknown_property).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a segment has the form of an external id (else it can only be a partner code). */
export function isUuid(segment: string): boolean {
  return UUID.test(segment);
}

/** Anything a reference can name: the two columns the rule reads. */
export interface Referable {
  external_id: string;
  partner_code: string | null;
}

/** A room type or rate plan row as far as the resolver needs it. */
export interface ChildRecord extends Referable {
  id: number;
  property_id: number;
}

/**
 * The rule for records already in memory (the inventory's loaded structure, a batch's fetched rows):
 * external ids in any case first, then exact partner codes; when two records share a code, the one added
 * first keeps it.
 */
export class SegmentIndex<T> {
  readonly #byId = new Map<string, T>();
  readonly #byCode = new Map<string, T>();

  constructor(private readonly refOf: (item: T) => Referable) {}

  add(item: T): this {
    const ref = this.refOf(item);
    this.#byId.set(ref.external_id.toLowerCase(), item);
    if (ref.partner_code !== null && !this.#byCode.has(ref.partner_code)) this.#byCode.set(ref.partner_code, item);
    return this;
  }

  find(segment: string): T | undefined {
    return (isUuid(segment) ? this.#byId.get(segment.toLowerCase()) : undefined) ?? this.#byCode.get(segment);
  }
}

function indexOf<T extends Referable>(records: readonly T[]): SegmentIndex<T> {
  const index = new SegmentIndex<T>((r) => r);
  for (const record of records) index.add(record);
  return index;
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

/**
 * Whose properties a reference may name: the customer, and (for a partner's token) the allow-list. An
 * operator acting for a customer passes no allow-list. A Principal is a PropertyScope.
 */
export interface PropertyScope {
  customerId: number;
  propertyIds?: ReadonlySet<number>;
}

/**
 * Each segment's property, in the order given (`undefined` for an unknown one or one outside the
 * allow-list). One query however many segments; duplicates resolve to the same row.
 */
export async function findProperties(
  db: Db,
  scope: PropertyScope,
  segments: readonly string[],
): Promise<(PropertyRow | undefined)[]> {
  if (!segments.length) return [];
  const ids = segments.filter(isUuid).map((s) => s.toLowerCase());
  const rows = await db.sql<PropertyRow>`
    select * from properties
    where customer_id = ${scope.customerId}
      and (external_id = any(${ids}::uuid[]) or partner_code = any(${[...segments]}::text[]))`;
  const index = indexOf(scope.propertyIds ? rows.filter((r) => scope.propertyIds?.has(r.id)) : rows);
  return segments.map((segment) => index.find(segment));
}

/** The property a segment names, or undefined (unknown, another customer's, or outside the allow-list). */
export async function findProperty(db: Db, scope: PropertyScope, segment: string): Promise<PropertyRow | undefined> {
  return (await findProperties(db, scope, [segment]))[0];
}

/** The property a segment names; 404 errors.not_found when there is none the caller may see. */
export async function resolveProperty(db: Db, scope: PropertyScope, segment: string): Promise<PropertyRow> {
  const row = await findProperty(db, scope, segment);
  if (!row) throw notFound();
  return row;
}

export type ChildTable = 'room_types' | 'rate_plans';

/**
 * Each segment's room type or rate plan among the given properties, in the order given (`undefined` when
 * none matches). One query however many segments. With several properties, a code used on more than one
 * of them names the record of the property listed first.
 */
export async function findChildren<T extends ChildRecord = ChildRecord>(
  db: Db,
  table: ChildTable,
  propertyIds: readonly number[],
  segments: readonly string[],
): Promise<(T | undefined)[]> {
  if (!segments.length || !propertyIds.length) return segments.map(() => undefined);
  const ids = segments.filter(isUuid).map((s) => s.toLowerCase());
  const rows = await db.query<T>(
    `select * from ${table}
     where property_id = any($1::bigint[]) and deleted_at is null
       and (external_id = any($2::uuid[]) or partner_code = any($3::text[]))`,
    [[...propertyIds], ids, [...segments]],
  );
  const order = (r: T) => propertyIds.indexOf(Number(r.property_id));
  const index = indexOf([...rows].sort((a, b) => order(a) - order(b)));
  return segments.map((segment) => index.find(segment));
}

/** The room type or rate plan a segment names on one property, or undefined. */
export async function findChild<T extends ChildRecord = ChildRecord>(
  db: Db,
  table: ChildTable,
  propertyId: number,
  segment: string,
): Promise<T | undefined> {
  return (await findChildren<T>(db, table, [propertyId], [segment]))[0];
}

/** The room type a segment names on the property; 404 errors.not_found when none. */
export async function resolveRoomType<R extends ChildRecord = RoomTypeRow>(
  db: Db,
  propertyId: number,
  segment: string,
): Promise<R> {
  // `select *`: the whole row, so a caller may read it as its module's record type.
  const row = await findChild<R>(db, 'room_types', propertyId, segment);
  if (!row) throw notFound();
  return row;
}

/** The rate plan a segment names on the property; 404 errors.not_found when none. */
export async function resolveRatePlan<R extends ChildRecord = RatePlanRow>(
  db: Db,
  propertyId: number,
  segment: string,
): Promise<R> {
  const row = await findChild<R>(db, 'rate_plans', propertyId, segment);
  if (!row) throw notFound();
  return row;
}
