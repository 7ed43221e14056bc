import { success } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, messages } from '../messages.ts';
import { asList, holdsNul, isArray, optionalText } from '../php-input.ts';

/** The five arrays of mapping_data; a missing one is stored empty. */
const MAPPING_ARRAYS = ['rooms_types', 'rates_types', 'services_types', 'meals_types', 'beds_types'] as const;

/**
 * POST property/postExternalPropertyData (spec 4.8): the PMS's own property id and name and its code lists,
 * replacing what this PMS (api key) posted before. Entries are stored verbatim, without validation; the ids
 * of `rooms_types` are what updateAvailability and getAvailability accept as `ext_room_id` once the
 * hotelier has linked them to rooms. A NUL byte, in the id, the name or anywhere in the code lists, is what
 * PostgreSQL cannot store (MySQL could): the post is refused as one missing that field (`Bad post request data!`).
 */
export async function postExternalPropertyData({ deps, caller, body }: LegacyCall): Promise<Response> {
  const property = isArray(body) ? body.property : undefined;
  const p = isArray(property) ? property : undefined;
  const id = p?.id;
  const name = p?.name;
  const mapping = p?.mapping_data;
  const extId = optionalText(id);
  const validMapping = isArray(mapping) && Object.keys(mapping).length > 0;
  if (extId === null || typeof name !== 'string' || optionalText(name) === null || !validMapping)
    throw badRequest(messages.postExternalPropertyData.badRequest);
  const stored = Object.fromEntries(MAPPING_ARRAYS.map((key) => [key, asList(mapping[key]) ?? []]));
  if (Object.values(stored).some(holdsNul)) throw badRequest(messages.postExternalPropertyData.badRequest);

  await deps.db.sql`
    insert into legacy_pms_property_data (key_id, property_id, ext_property_id, ext_property_name, mapping_data, updated_at)
    values (${caller.keyId}, ${caller.propertyId}, ${extId}, ${name}, ${stored}, ${deps.clock.now()})
    on conflict (key_id) do update set ext_property_id = excluded.ext_property_id,
      ext_property_name = excluded.ext_property_name, mapping_data = excluded.mapping_data, updated_at = excluded.updated_at`;
  return success();
}
