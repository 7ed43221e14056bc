import { t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';

export const Money = t.Object({
  amount: t.Number({ minimum: 0 }),
  currency: t.Optional(t.String({ pattern: '^[A-Z]{3}$' })),
});

export const Guest = t.Object({
  first_name: t.String({ maxLength: 100 }),
  last_name: t.String({ maxLength: 100 }),
  // An address has a local part and a domain: `x` and "" are not addresses (leave the field out when unknown).
  email: t.Optional(
    t.String({ maxLength: 200, pattern: '^[^\\s@]+@[^\\s@]+$', description: 'local@domain, no spaces' }),
  ),
  phone: t.Optional(t.String({ maxLength: 50 })),
});

/** A room line; room type and rate plan by external id or partner code. */
export const RoomLine = t.Object({
  room_type_id: t.String({ minLength: 1 }),
  rate_plan_id: t.String({ minLength: 1 }),
  qty: t.Optional(t.Integer({ minimum: 1, maximum: 100 })),
  adults: t.Optional(t.Integer({ minimum: 0, maximum: 50 })),
  children: t.Optional(t.Integer({ minimum: 0, maximum: 50 })),
  price: t.Optional(t.Number({ minimum: 0 })),
});

const bookingFields = {
  property_id: t.String({ minLength: 1, description: 'External property id or partner code' }),
  reference: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 100,
      description: 'Your reservation reference: sending it again returns the booking it made',
    }),
  ),
  guest: Guest,
  checkin_date: DayText,
  checkout_date: DayText,
  rooms: t.Array(RoomLine, { minItems: 1, maxItems: 20 }),
  total_price: Money,
  tentative: t.Optional(t.Boolean({ description: 'Take the booking as tentative (awaiting confirmation)' })),
  comment: t.Optional(t.String({ maxLength: 2000, description: 'Internal comment, never in the feed' })),
};

/** POST /bookings: a partner-originated booking from one of the known source channels. */
export const CreateBookingBody = t.Object({
  ...bookingFields,
  source_channel: t.String({
    minLength: 2,
    maxLength: 32,
    description: 'QDO, QDB, QDA, GHA or an OTA code (BDC, EXP, ABB, AGO, HRS)',
  }),
});

/** POST /b2b/bookings: an agency booking (source channel QDA) with the agency that made it. */
export const CreateB2bBookingBody = t.Object({
  ...bookingFields,
  agency: t.Object({
    name: t.String({ minLength: 1, maxLength: 200 }),
    reference: t.Optional(t.String({ maxLength: 100 })),
    iata_code: t.Optional(t.String({ maxLength: 20 })),
  }),
});

export const RoomAssignmentBody = t.Object({
  room_number: t.String({ minLength: 1, maxLength: 32 }),
  self_checkin_code: t.Optional(t.String({ maxLength: 64 })),
  booking_item_id: t.Optional(
    t.Integer({ minimum: 1, description: 'Required when the booking has more than one room line' }),
  ),
});

export const PartnerCancelBody = t.Optional(
  t.Object({
    reason_code: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    fee_charged: t.Optional(t.Number({ minimum: 0 })),
  }),
);

export const BookingAckBody = t.Optional(
  t.Object({ revision_id: t.Optional(t.Integer({ minimum: 1, description: 'Ack only revisions up to this id' })) }),
);

export const PropertyParams = t.Object({ property: t.String() });
export const BookingParams = t.Object({ property: t.String(), booking: t.String() });
export const BookingIdParams = t.Object({ booking: t.String() });
export const RevisionParams = t.Object({ revision: t.String() });

const Iso = t.String({ format: 'date-time' });
const Price = t.Object({ amount: t.Number(), currency: t.String() });
const BookingStatusSchema = t.Union(
  ['requested', 'tentative', 'confirmed', 'cancelled', 'no_show', 'checked_in', 'checked_out'].map((s) => t.Literal(s)),
);

/** A booking as partners see it (view.ts): the revision snapshot as it stands now, guest masked. */
export const BookingSchema = t.Object({
  inbound_booking_id: t.Integer(),
  external_booking_id: t.String(),
  external_revision_id: t.Nullable(t.String()),
  source_channel: t.String(),
  status: BookingStatusSchema,
  guest_first_name: t.String(),
  guest_last_name: t.String(),
  guest_email: t.String(),
  guest_phone: t.String(),
  checkin_date: DayText,
  checkout_date: DayText,
  nights: t.Integer(),
  adults: t.Integer(),
  children: t.Integer(),
  currency_code: t.String(),
  total_price: Price,
  rooms: t.Array(
    t.Object({
      booking_item_id: t.Integer(),
      room_id: t.Integer(),
      rate_plan_id: t.Integer(),
      qty: t.Integer(),
      adults: t.Integer(),
      children: t.Integer(),
      price: Price,
      external_room_type_id: t.String(),
      external_rate_plan_id: t.String(),
      room_number: t.Nullable(t.String()),
    }),
  ),
  extras: t.Array(t.Unknown()),
  processing_state: t.String(),
  no_show_at: t.Nullable(Iso),
  cancelled_at: t.Nullable(Iso),
  agency: t.Optional(t.Record(t.String(), t.Unknown())),
  cancellation: t.Optional(
    t.Object({
      cancelled_at: Iso,
      cancelled_by: t.Union([t.Literal('guest'), t.Literal('hotelier'), t.Literal('ota'), t.Literal('system')]),
      reason_code: t.String(),
      policy_snapshot: t.Record(t.String(), t.Unknown()),
      fee_charged: t.Number(),
    }),
  ),
  received_at: Iso,
});

/** A feed item (view.ts revisionView). */
export const RevisionSchema = t.Object({
  id: t.Integer(),
  inbound_booking_id: t.Integer(),
  revision_type: t.Union(['created', 'modified', 'cancelled', 'no_show', 'confirmed'].map((s) => t.Literal(s))),
  created_at: Iso,
  external_property_id: t.String({ format: 'uuid' }),
  payload: t.Record(t.String(), t.Unknown()),
});

/** One page of the revision feed (feed.ts feedPage). */
export const FeedPageSchema = t.Object({
  booking_revisions: t.Array(RevisionSchema),
  next_cursor: t.Integer({ description: 'Pass as since to continue' }),
});
