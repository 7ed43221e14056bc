import type { Db } from '../../server/core/db/db.ts';
import { looseInt, optionalText } from '../php-input.ts';

/**
 * The property's rooms named by a call's legacy room ids, in one query. `room_id` is the internal integer
 * id (as PHP read it: number or numeric string). An `ext_room_id` resolves through the PMS's own mapping:
 * the id must be one the PMS declared in postExternalPropertyData's `rooms_types`, and the hotelier must
 * have linked it to a room of the property; ext ids are compared as strings, byte for byte (one with a NUL byte
 * resolves to nothing: no stored id holds one, see optionalText).
 */
export interface LegacyRooms {
  byRoomId(roomId: unknown): number | undefined;
  byExtRoomId(extRoomId: unknown): number | undefined;
}

export async function resolveLegacyRooms(
  db: Db,
  caller: { keyId: number; propertyId: number },
  ids: { roomIds: readonly unknown[]; extRoomIds: readonly unknown[] },
): Promise<LegacyRooms> {
  const roomIds = [...new Set(ids.roomIds.map(looseInt).filter((id) => id !== undefined))];
  const extRoomIds = [...new Set(ids.extRoomIds.map(optionalText).filter((id) => id !== null))];
  const byRoomId = new Map<number, number>();
  const byExt = new Map<string, number>();
  if (roomIds.length || extRoomIds.length) {
    const rows = await db.sql<{ ext: string | null; id: number }>`
      select null as ext, r.id from room_types r
      where r.id = any(${roomIds}::bigint[]) and r.property_id = ${caller.propertyId} and r.deleted_at is null
      union all
      select l.ext_room_id as ext, r.id from legacy_room_links l
      join room_types r on r.id = l.room_type_id and r.property_id = ${caller.propertyId} and r.deleted_at is null
      where l.key_id = ${caller.keyId} and l.ext_room_id = any(${extRoomIds}::text[])
        and exists (select 1 from legacy_pms_property_data d, jsonb_array_elements(d.mapping_data -> 'rooms_types') e
          where d.key_id = l.key_id and e ->> 'id' = l.ext_room_id)`;
    for (const row of rows) {
      if (row.ext === null) byRoomId.set(row.id, row.id);
      else byExt.set(row.ext, row.id);
    }
  }
  return {
    byRoomId: (roomId) => {
      const id = looseInt(roomId);
      return id === undefined ? undefined : byRoomId.get(id);
    },
    byExtRoomId: (extRoomId) => {
      const ext = optionalText(extRoomId);
      return ext === null ? undefined : byExt.get(ext);
    },
  };
}

/** The hotelier's link from a PMS room type id to a room of the property (dashboard, demo and tests). */
export async function linkExtRoom(db: Db, keyId: number, extRoomId: string, roomTypeId: number): Promise<void> {
  await db.sql`insert into legacy_room_links (key_id, ext_room_id, room_type_id) values (${keyId}, ${extRoomId}, ${roomTypeId})
    on conflict (key_id, ext_room_id) do update set room_type_id = excluded.room_type_id`;
}
