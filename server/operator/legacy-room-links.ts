import { t } from 'elysia';
import { linkExtRoom } from '../../legacy/availability/rooms.ts';
import type { Db } from '../core/db/db.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import { findChildren, type PropertyRow } from '../core/resolve.ts';

/**
 * The hotelier's links from a PMS's room type ids (what legacy postExternalPropertyData declared in
 * `mapping_data.rooms_types`) to the property's room types: what legacy `ext_room_id` resolves through.
 * The operator and the dashboard edit them with the same rule, here.
 */
export const RoomLinksBody = t.Object({
  links: t.Array(
    t.Object({
      ext_room_id: t.String({
        minLength: 1,
        description: 'A room type id the PMS declared in mapping_data.rooms_types',
      }),
      room_type_id: t.Nullable(
        t.String({
          minLength: 1,
          description: 'External id or partner code of a room type of the property; null unlinks',
        }),
      ),
    }),
    { minItems: 1, maxItems: 500 },
  ),
});

export interface RoomLinkView {
  pms_name: string;
  ext_room_id: string;
  name: string;
  /** External id of the linked room type, or null while unlinked. */
  room_type_id: string | null;
}

/** Every room type id each PMS of the property declared, in declaration order, with its link. */
export async function roomLinksOf(db: Db, property: PropertyRow) {
  const links = await db.sql<RoomLinkView>`
    select k.pms_name, e.value ->> 'id' as ext_room_id, coalesce(e.value ->> 'name', '') as name,
      rt.external_id::text as room_type_id
    from legacy_pms_property_data d
    join legacy_api_keys k on k.id = d.key_id
    cross join lateral jsonb_array_elements(d.mapping_data -> 'rooms_types') with ordinality e(value, n)
    left join legacy_room_links l on l.key_id = d.key_id and l.ext_room_id = e.value ->> 'id'
    left join room_types rt on rt.id = l.room_type_id and rt.property_id = d.property_id and rt.deleted_at is null
    where d.property_id = ${property.id}
    order by d.key_id, e.n`;
  return { property_id: property.external_id, links: [...links] };
}

/**
 * Links (or, with a null room type, unlinks) each `ext_room_id` for every PMS of the property that declared
 * it. Everything is checked before anything is written: an id no PMS of the property declared, or a room
 * type that is not the property's, is 422 on its own path (`links.<i>.ext_room_id` / `.room_type_id`).
 */
export async function setRoomLinks(db: Db, property: PropertyRow, input: typeof RoomLinksBody.static) {
  const declared = await db.sql<{ key_id: number; ext_room_id: string }>`
    select d.key_id, e.value ->> 'id' as ext_room_id
    from legacy_pms_property_data d cross join lateral jsonb_array_elements(d.mapping_data -> 'rooms_types') e
    where d.property_id = ${property.id}`;
  const segments = input.links.flatMap((l) => (l.room_type_id === null ? [] : [l.room_type_id]));
  const found = await findChildren(db, 'room_types', [property.id], segments);
  const roomOf = new Map(segments.map((segment, i) => [segment, found[i]?.id]));

  const errors: FieldErrors = {};
  input.links.forEach((link, i) => {
    if (!declared.some((d) => d.ext_room_id === link.ext_room_id))
      errors[`links.${i}.ext_room_id`] = ['customer.legacy_room_link.messages.undeclared'];
    if (link.room_type_id !== null && roomOf.get(link.room_type_id) === undefined)
      errors[`links.${i}.room_type_id`] = ['customer.legacy_room_link.messages.unknown_room_type'];
  });
  if (Object.keys(errors).length) throw validationError(errors);

  await db.tx(async (tx) => {
    for (const link of input.links) {
      const roomTypeId = link.room_type_id === null ? undefined : roomOf.get(link.room_type_id);
      for (const { key_id } of declared.filter((d) => d.ext_room_id === link.ext_room_id)) {
        if (roomTypeId === undefined)
          await tx.sql`delete from legacy_room_links where key_id = ${key_id} and ext_room_id = ${link.ext_room_id}`;
        else await linkExtRoom(tx, key_id, link.ext_room_id, roomTypeId);
      }
    }
  });
  return roomLinksOf(db, property);
}
