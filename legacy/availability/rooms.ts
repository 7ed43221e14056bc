import type { Db } from '../../server/core/db/db.ts';
import { looseInt } from '../php-input.ts';

/** The property's room type with this legacy room id (the internal integer id), if any. */
export async function propertyRoomId(db: Db, propertyId: number, roomId: unknown): Promise<number | undefined> {
  const id = looseInt(roomId);
  if (id === undefined) return undefined;
  const [row] = await db.sql<{ id: number }>`
    select id from room_types where id = ${id} and property_id = ${propertyId} and deleted_at is null`;
  return row?.id;
}

/**
 * An `ext_room_id` resolves through the PMS's own mapping: the id must be one the PMS declared in
 * postExternalPropertyData's `rooms_types`, and the hotelier must have linked it to a room of the property.
 * Ids are compared as strings, byte for byte (they are stored verbatim).
 */
export async function roomIdForExtRoom(
  db: Db,
  keyId: number,
  propertyId: number,
  extRoomId: unknown,
): Promise<number | undefined> {
  if (typeof extRoomId !== 'string' && typeof extRoomId !== 'number') return undefined;
  const ext = String(extRoomId);
  const [row] = await db.sql<{ id: number }>`
    select r.id from legacy_room_links l
    join room_types r on r.id = l.room_type_id and r.property_id = ${propertyId} and r.deleted_at is null
    join legacy_pms_property_data d on d.key_id = l.key_id
    where l.key_id = ${keyId} and l.ext_room_id = ${ext}
      and exists (select 1 from jsonb_array_elements(d.mapping_data -> 'rooms_types') e where e ->> 'id' = ${ext})`;
  return row?.id;
}

/** The hotelier's link from a PMS room type id to a room of the property (dashboard, demo and tests). */
export async function linkExtRoom(db: Db, keyId: number, extRoomId: string, roomTypeId: number): Promise<void> {
  await db.sql`insert into legacy_room_links (key_id, ext_room_id, room_type_id) values (${keyId}, ${extRoomId}, ${roomTypeId})
    on conflict (key_id, ext_room_id) do update set room_type_id = excluded.room_type_id`;
}
