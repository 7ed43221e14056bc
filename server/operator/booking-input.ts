import { t } from 'elysia';
import { CHANNELS } from '../bookings/channels.ts';
import type { NewBooking } from '../bookings/intake.ts';
import type { IntakeKey } from '../bookings/intake-keys.ts';
import { lineInputOf } from '../bookings/lines.ts';
import {
  type BookingRow,
  type BookingStatus,
  bookingById,
  bookingRooms,
  revisionsOfBooking,
} from '../bookings/snapshot.ts';
import { sha256Hex } from '../core/auth/secrets.ts';
import { FIRST_GENERATED_BOOKING_ID } from '../core/booking-ids.ts';
import type { Deps } from '../core/deps.ts';
import { notFound, validationError } from '../core/http/api-error.ts';

/** The operator's booking bodies (platform channels: booking engine, dashboard, agency desk, GHA, OTAs). */
export const OpsRoomLine = t.Object({
  room_type_id: t.Union([t.Integer({ minimum: 1 }), t.String({ minLength: 1 })], {
    description: 'internal id, external id or partner code',
  }),
  rate_plan_id: t.Union([t.Integer({ minimum: 1 }), t.String({ minLength: 1 })]),
  qty: t.Optional(t.Integer({ minimum: 1 })),
  adults: t.Optional(t.Integer({ minimum: 0 })),
  children: t.Optional(t.Integer({ minimum: 0 })),
  price: t.Optional(t.Number({ minimum: 0 })),
});
export const OpsGuest = t.Object({
  first_name: t.Optional(t.String()),
  last_name: t.Optional(t.String()),
  email: t.Optional(t.String()),
  phone: t.Optional(t.String()),
});
const Channel = t.Union(CHANNELS.map((c) => t.Literal(c)));
const STATUSES = [
  'requested',
  'tentative',
  'confirmed',
  'cancelled',
  'no_show',
  'checked_in',
  'checked_out',
] as const satisfies readonly BookingStatus[];
export const Status = t.Union(STATUSES.map((s) => t.Literal(s)));
export const OpsBooking = t.Object({
  property_id: t.String({ description: 'internal id or external id' }),
  channel: Channel,
  guest: OpsGuest,
  checkin_date: t.String(),
  checkout_date: t.String(),
  rooms: t.Array(OpsRoomLine, { minItems: 1 }),
  total_price: t.Object({
    amount: t.Number({ minimum: 0 }),
    currency: t.Optional(t.String({ pattern: '^[A-Z]{3}$' })),
  }),
  adults: t.Optional(t.Integer({ minimum: 0 })),
  children: t.Optional(t.Integer({ minimum: 0 })),
  tentative: t.Optional(t.Boolean()),
  id: t.Optional(
    t.Integer({
      minimum: 1,
      maximum: FIRST_GENERATED_BOOKING_ID - 1,
      description: 'explicit old-generation booking id',
    }),
  ),
  external_booking_id: t.Optional(t.String({ minLength: 1 })),
  channel_reference: t.Optional(t.String({ minLength: 1 })),
  comment: t.Optional(t.String()),
});
type OpsBookingBody = typeof OpsBooking.static;

/** The domain's NewBooking for an operator booking body. */
export function opsInput(propertyId: number, b: OpsBookingBody): NewBooking {
  return {
    propertyId,
    channel: b.channel,
    guest: { firstName: b.guest.first_name, lastName: b.guest.last_name, email: b.guest.email, phone: b.guest.phone },
    checkinDate: b.checkin_date,
    checkoutDate: b.checkout_date,
    rooms: b.rooms.map(lineInputOf),
    totalPrice: b.total_price.amount,
    currency: b.total_price.currency,
    adults: b.adults,
    children: b.children,
    tentative: b.tentative,
    id: b.id,
    externalBookingId: b.external_booking_id,
    channelReference: b.channel_reference,
    internalComment: b.comment,
  };
}

/** The operator sees the booking in clear (no masking), with its rooms and revision ids. */
export async function opsView(deps: Deps, b: BookingRow) {
  const revisions = await revisionsOfBooking(deps.db, b.id);
  return { ...b, total_amount: Number(b.total_amount), rooms: await bookingRooms(deps.db, b.id), revisions };
}

/** The booking an operator path names by internal id; 404 when there is none. */
export async function bookingOf(deps: Deps, id: number): Promise<BookingRow> {
  const row = await bookingById(deps.db, id);
  if (!row) throw notFound();
  return row;
}

/** The Idempotency-Key of an intake request, with the body's fingerprint; absent: no deduplication. */
export function intakeKeyOf(key: string | null, body: unknown): IntakeKey | undefined {
  if (key === null) return undefined;
  if (key.length < 1 || key.length > 128)
    throw validationError({
      idempotency_key: [`customer.booking.messages.${key.length ? 'max_length' : 'min_length'}`],
    });
  return { origin: 'operator', key, fingerprint: sha256Hex(JSON.stringify(body)) };
}
