import { newTicket, recordIncident } from '../../server/core/http/incidents.ts';
import { errorFields } from '../../server/core/log.ts';
import { success } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, LegacyError, messages, notFound } from '../messages.ts';
import { isArray, isSet, looseInt, optionalText } from '../php-input.ts';

const m = messages.postRoomAssignment;

/**
 * POST booking/postRoomAssignment (spec 4.8): informational. Records the physical room (and self check-in
 * code) on the booking item, binds the item to this PMS if no PMS touched it yet, and logs a
 * `room_assignment` customer event in legacy_customer_events; no webhook event is emitted. The booking must
 * have been sent through getBookings (a legacy revision exists). A failed write answers
 * `Error when try to post room assignment!` with the incident's ticket in `X-Support-Ticket`.
 */
export async function postRoomAssignment({ deps, caller, body, request }: LegacyCall): Promise<Response> {
  const b = isArray(body) ? body : {};
  // As ackBooking reads its annotations: a room number that is no text (an array, an object, a NUL byte) is missing.
  const roomNumber = optionalText(b.room_number);
  const code = optionalText(b.self_checkin_code);
  if (!isSet(b.booking_id) || !isSet(b.booking_item_id) || roomNumber === null) throw badRequest(m.badRequest);
  const [booking] = await deps.db.sql<{ id: number }>`
    select b.id from bookings b
    where b.id = ${looseInt(b.booking_id) ?? -1} and b.property_id = ${caller.propertyId}
      and exists (select 1 from legacy_booking_revisions r where r.booking_id = b.id)`;
  if (!booking) throw notFound(m.missingBooking);
  const [item] = await deps.db.sql<{ id: number }>`
    select id from booking_rooms where id = ${looseInt(b.booking_item_id) ?? -1} and booking_id = ${booking.id}
      and (pms_key_id is null or pms_key_id = ${caller.keyId})`;
  if (!item) throw notFound(m.missingItem);

  try {
    await deps.db.tx(async (tx) => {
      await tx.sql`
        insert into legacy_customer_events (type, customer_id, property_id, key_id, booking_id, booking_item_id,
          room_number, self_checkin_code, created_at)
        values ('room_assignment', ${caller.customerId}, ${caller.propertyId}, ${caller.keyId}, ${booking.id}, ${item.id},
          ${roomNumber}, ${code}, ${deps.clock.now()})`;
      await tx.sql`
        update booking_rooms set room_number = ${roomNumber}, self_checkin_code = coalesce(${code}, self_checkin_code),
          pms_key_id = coalesce(pms_key_id, ${caller.keyId})
        where id = ${item.id}`;
    });
  } catch (error) {
    const ticket = newTicket();
    deps.log.warn('legacy room assignment not written', { ticket, booking_id: booking.id, ...errorFields(error) });
    recordIncident(deps.db, deps.log, ticket, {
      requestId: ticket,
      method: request.method,
      path: new URL(request.url).pathname,
      status: 400,
      key: 'legacy.room_assignment_failed',
      detail: { booking_id: booking.id, booking_item_id: item.id, ...errorFields(error) },
    });
    throw new LegacyError(400, m.writeFailed, { 'X-Support-Ticket': ticket });
  }
  return success();
}
