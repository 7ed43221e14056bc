import { addDays, localToday } from '../../server/core/days.ts';
import { dataResponse } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, messages } from '../messages.ts';
import { isSet, looseInt } from '../php-input.ts';
import { currentRevisions, revisionBytes } from './legacy-revisions.ts';

const TYPES = ['new', 'modified'] as const;

/**
 * GET booking/getBookings (spec 4.8): the current legacy revision of every booking of the property with
 * check-in on or after yesterday (property-local) and a status other than `requested` that is not acked
 * yet, ascending by revision id (creation order). `type=new` keeps bookings sent for the first time,
 * `type=modified` those sent before with other content. `booking_id` narrows to that booking and returns
 * its current revision whether acked or not (window and status still apply). An empty `data` is legal.
 */
export async function getBookings({ deps, caller, query }: LegacyCall): Promise<Response> {
  const type = query.type;
  if (isSet(type) && !TYPES.includes(type as (typeof TYPES)[number]))
    throw badRequest(messages.getBookings.invalidType);
  const byId = isSet(query.booking_id);
  const bookingId = byId ? (looseInt(query.booking_id) ?? -1) : null;
  const now = deps.clock.now();
  const yesterday = addDays(localToday(caller.timezone, now), -1);

  const revisions = (
    await currentRevisions(deps.db, { propertyId: caller.propertyId, from: yesterday, bookingId }, now)
  )
    .filter((r) => byId || r.acked_at === null)
    .filter((r) => !isSet(type) || (type === 'new') === (r.seq === 1))
    .sort((a, b) => a.id - b.id);
  return dataResponse(revisions.map(revisionBytes));
}
