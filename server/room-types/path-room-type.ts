import { resolveRoomType } from '../core/resolve.ts';
import { recordInProperty } from '../core/routes/in-property.ts';
import type { RoomTypeRecord } from './service.ts';

/**
 * The room type of every route under /properties/:property/room_types/:roomType (its amenities too), declared as
 * the route's `pathRecord`: the pipeline resolves it on the path's property (external id, then partner code)
 * before it reads the body, so another property's room type, a deleted one or an unknown segment is a 404
 * whatever the body (README, Authorization), and the handler gets the row.
 */
export const pathRoomType = recordInProperty((deps, property, params) =>
  resolveRoomType<RoomTypeRecord>(deps.db, property.id, params.roomType ?? ''),
);
