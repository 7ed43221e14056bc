import { success } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, messages, notFound } from '../messages.ts';
import { asList, isArray, isSet, looseInt, optionalText, type PhpArray } from '../php-input.ts';

const m = messages.ackBooking;

/**
 * POST booking/ackBooking (spec 4.8): acknowledges one legacy revision, matched byte for byte by
 * `revision_id` among the booking's revisions (earlier revisions stay as they are). Optional
 * `booking_items[]` entries `{booking_item_id, ext_reservation_id, room_number?, self_checkin_code?}`
 * annotate the booking's items: `pms_status` becomes `sync_ok` and the item is bound to the first PMS that
 * touched it; an item bound to another PMS is refused like a missing one. An annotation that is no text
 * (`optionalText`: an array, an object, a NUL byte) counts as not sent. A room_number wider than postRoomAssignment's
 * 32 characters is stored as sent, as the port always has: what the legacy service did with one is not recorded, and
 * refusing it would turn a PMS's working acks into failures it retries for ever. All or nothing, in one transaction;
 * a concurrent second ack of the same revision gets `The ack was already sent!`.
 */
export async function ackBooking({ deps, caller, body }: LegacyCall): Promise<Response> {
  const b = isArray(body) ? body : {};
  if (!isSet(b.booking_id) || !isSet(b.revision_id)) throw badRequest(m.badRequest);
  const items = isSet(b.booking_items) ? asList(b.booking_items) : [];
  const valid = items?.every(
    (i) => isArray(i) && isSet(i.booking_item_id) && optionalText(i.ext_reservation_id) !== null,
  );
  if (!items || !valid) throw badRequest(m.badItems);
  const entries = items as PhpArray[];

  await deps.db.tx(async (tx) => {
    const [booking] = await tx.sql<{ id: number }>`
      select id from bookings where id = ${looseInt(b.booking_id) ?? -1} and property_id = ${caller.propertyId}`;
    if (!booking) throw notFound(m.missingBooking);
    const [revision] = await tx.sql<{ id: number; acked_at: Date | null }>`
      select id, acked_at from legacy_booking_revisions
      where booking_id = ${booking.id} and revision_id = ${optionalText(b.revision_id)}
      order by seq desc limit 1 for update`;
    if (!revision) throw notFound(m.missingRevision);
    if (revision.acked_at) throw badRequest(m.alreadyAcked);

    for (const item of entries) {
      const [row] = await tx.sql<{ id: number }>`
        select id from booking_rooms
        where id = ${looseInt(item.booking_item_id) ?? -1} and booking_id = ${booking.id}
          and (pms_key_id is null or pms_key_id = ${caller.keyId})
        for update`;
      if (!row) throw notFound(m.missingItem);
      await tx.sql`
        update booking_rooms set pms_status = 'sync_ok', pms_key_id = ${caller.keyId},
          ext_reservation_id = ${optionalText(item.ext_reservation_id)},
          room_number = coalesce(${optionalText(item.room_number)}, room_number),
          self_checkin_code = coalesce(${optionalText(item.self_checkin_code)}, self_checkin_code)
        where id = ${row.id}`;
    }
    await tx.sql`update legacy_booking_revisions set acked_at = ${deps.clock.now()}, acked_key_id = ${caller.keyId}
      where id = ${revision.id}`;
  });
  return success();
}
