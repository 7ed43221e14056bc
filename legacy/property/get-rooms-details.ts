import { dataResponse } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { messages, notFound } from '../messages.ts';
import { isSet, looseInt } from '../php-input.ts';
import { roomDetails } from './room-details.ts';

/**
 * GET property/getRoomsDetails (spec 4.8): `{data: [room details]}`, every room of the property or only
 * `room_id`. A room that is not on the property (or not a room id at all) answers 404 with the room
 * loader's own message, passed through as the legacy service did.
 */
export async function getRoomsDetails({ deps, caller, query }: LegacyCall): Promise<Response> {
  const locale = typeof query.lang === 'string' ? query.lang : undefined;
  if (!isSet(query.room_id)) return dataResponse(await roomDetails(deps, caller.propertyId, locale));
  const given = typeof query.room_id === 'string' ? query.room_id : '';
  const roomId = looseInt(query.room_id);
  const rooms = roomId === undefined ? [] : await roomDetails(deps, caller.propertyId, locale, roomId);
  if (!rooms.length) throw notFound(messages.getRoomsDetails.roomNotLoadable(given));
  return dataResponse(rooms);
}
