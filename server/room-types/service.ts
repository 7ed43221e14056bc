import type { Db } from '../core/db/db.ts';
import { type FieldErrors, notFound, validationError } from '../core/http/api-error.ts';
import { nameTrOf } from '../core/name-tr.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { uniquePartnerCode } from '../properties/partner-code.ts';

/** Legacy room `type` (spec 2.10) for each kind; a kind the legacy facade has no number for reads as a room. */
export const LEGACY_TYPES = { apartment: 4, villa: 5, studio: 6, room: 7 } as const;
export type RoomKind = keyof typeof LEGACY_TYPES;
export const ROOM_KINDS = Object.keys(LEGACY_TYPES) as RoomKind[];

export function kindOfLegacyType(type: number): RoomKind {
  return ROOM_KINDS.find((k) => LEGACY_TYPES[k] === type) ?? 'room';
}

/** A room_types row as stored. */
export interface RoomTypeRecord {
  id: number;
  external_id: string;
  property_id: number;
  name: string;
  name_tr: Record<string, string>;
  kind: string;
  qty: number;
  max_adults: number;
  max_children: number;
  max_infants: number;
  regular_beds: number;
  extra_beds: number;
  extra_beds_children_only: number;
  no_beds: number;
  description: string;
  legacy_type: number;
  sqm_area: number | null;
  images: string[];
  partner_code: string | null;
  partner_name: string | null;
}

export interface NewRoomType {
  name: string;
  nameTr?: Record<string, string>;
  kind?: RoomKind;
  /** Legacy type 4/5/6/7; derived from `kind` when omitted (and `kind` from it when only it is given). */
  legacyType?: number;
  qty?: number;
  regularBeds?: number;
  extraBeds?: number;
  extraBedsChildrenOnly?: number;
  noBeds?: number;
  occupancy?: { adults?: number; children?: number; infants?: number };
  description?: string;
  sqmArea?: number | null;
  images?: string[];
  partnerCode?: string | null;
  partnerName?: string | null;
}

/**
 * Creates a room type (one record, committed with its event). Used by POST room_types and the demo.
 * Occupancy defaults follow the beds: adults fill the regular beds and the extra beds open to them,
 * children may use any extra bed, infants the cots (no_beds). `kind` and the legacy `type` name the same thing
 * (spec 2.10 names each type by its kind): both sent, they must agree, or the modern and legacy reads of the room
 * would call it two things.
 */
export async function createRoomType(tx: Db, property: PropertyRow, input: NewRoomType): Promise<RoomTypeRecord> {
  const errors: FieldErrors = {};
  if ((input.extraBedsChildrenOnly ?? 0) > (input.extraBeds ?? 0)) {
    errors.extra_beds_children_only = ['customer.room_type.messages.max_extra_beds'];
  }
  if (input.kind && input.legacyType !== undefined && LEGACY_TYPES[input.kind] !== input.legacyType) {
    errors.type = ['customer.room_type.messages.differs_from_kind'];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  const kind = input.kind ?? (input.legacyType ? kindOfLegacyType(input.legacyType) : 'room');
  const legacyType = input.legacyType ?? LEGACY_TYPES[kind];
  const regular = input.regularBeds ?? 2;
  const extra = input.extraBeds ?? 0;
  const childrenOnly = input.extraBedsChildrenOnly ?? 0;
  const noBeds = input.noBeds ?? 0;
  const adults = input.occupancy?.adults ?? Math.max(1, regular) + extra - childrenOnly;
  const children = input.occupancy?.children ?? extra;
  const infants = input.occupancy?.infants ?? noBeds;
  const row = await uniquePartnerCode(async () => {
    const [inserted] = await tx.sql<RoomTypeRecord>`
      insert into room_types (property_id, name, name_tr, kind, qty, max_adults, max_children, max_infants,
        regular_beds, extra_beds, extra_beds_children_only, no_beds, description, legacy_type, sqm_area, images,
        partner_code, partner_name)
      values (${property.id}, ${input.name}, ${nameTrOf(input.name, input.nameTr)}, ${kind}, ${input.qty ?? 1}, ${adults}, ${children},
        ${infants}, ${regular}, ${extra}, ${childrenOnly}, ${noBeds}, ${input.description ?? ''}, ${legacyType},
        ${input.sqmArea ?? null}, ${input.images ?? []}, ${input.partnerCode ?? null}, ${input.partnerName ?? null})
      returning *`;
    return inserted;
  });
  await recordEvent(tx, {
    type: 'room_type.created',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { property_id: property.external_id, room_type_id: row.external_id, partner_code: row.partner_code },
  });
  return row;
}

/** One page of a property's room types, oldest first, and how many there are. */
export async function listRoomTypes(
  db: Db,
  propertyId: number,
  page: number,
  perPage: number,
): Promise<{ rows: RoomTypeRecord[]; total: number }> {
  const [count] = await db.sql<{ n: number }>`
    select count(*)::int as n from room_types where property_id = ${propertyId} and deleted_at is null`;
  const rows = await db.sql<RoomTypeRecord>`
    select * from room_types where property_id = ${propertyId} and deleted_at is null
    order by created_at, id limit ${perPage} offset ${(page - 1) * perPage}`;
  return { rows, total: count?.n ?? 0 };
}

/** Sets the partner's mapping of a room type; only the fields present change, and unchanged ones write nothing. */
export async function updateRoomTypeMapping(
  tx: Db,
  property: PropertyRow,
  roomTypeId: number,
  patch: { partnerCode?: string | null; partnerName?: string | null },
): Promise<RoomTypeRecord> {
  const [current] = await tx.sql<RoomTypeRecord>`select * from room_types where id = ${roomTypeId} for update`;
  if (!current) throw notFound();
  const code = patch.partnerCode === undefined ? current.partner_code : patch.partnerCode;
  const name = patch.partnerName === undefined ? current.partner_name : patch.partnerName;
  // The guard of updateOwned (config-surfaces), spelled here: importing it would close a folder cycle through
  // rate-plans. An unchanged mapping writes nothing and records no room_type.updated (spec 6.3).
  const { row } = await uniquePartnerCode(async () => {
    const [updated] = await tx.sql<RoomTypeRecord>`
      update room_types set partner_code = ${code}, partner_name = ${name}, updated_at = now()
      where id = ${roomTypeId} and (partner_code, partner_name) is distinct from (${code}::text, ${name}::text)
      returning *`;
    return { row: updated };
  });
  if (!row) return current;
  await recordEvent(tx, {
    type: 'room_type.updated',
    customerId: property.customer_id,
    propertyId: property.id,
    data: {
      property_id: property.external_id,
      room_type_id: row.external_id,
      partner_code: row.partner_code,
      partner_name: row.partner_name,
    },
  });
  return row;
}
