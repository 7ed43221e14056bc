import { t } from 'elysia';
import { CHANNELS } from '../bookings/channels.ts';
import {
  cancelBooking,
  confirmBooking,
  createBooking,
  modifyBooking,
  type NewBooking,
  recordNoShow,
  type SeedBooking,
  seedBookings,
} from '../bookings/intake.ts';
import type { IntakeKey } from '../bookings/intake-keys.ts';
import { lineInputOf } from '../bookings/lines.ts';
import { type BookingRow, bookingRooms } from '../bookings/snapshot.ts';
import { sha256Hex } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import { notFound, validationError } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { createJsonApp } from '../core/http/json-app.ts';
import { propertyIdOf } from '../properties/insert-property.ts';

type OpsApp = ReturnType<typeof createJsonApp>;

const OpsRoomLine = t.Object({
  room_type_id: t.Union([t.Integer({ minimum: 1 }), t.String({ minLength: 1 })], {
    description: 'internal id, external id or partner code',
  }),
  rate_plan_id: t.Union([t.Integer({ minimum: 1 }), t.String({ minLength: 1 })]),
  qty: t.Optional(t.Integer({ minimum: 1 })),
  adults: t.Optional(t.Integer({ minimum: 0 })),
  children: t.Optional(t.Integer({ minimum: 0 })),
  price: t.Optional(t.Number({ minimum: 0 })),
});
const OpsGuest = t.Object({
  first_name: t.Optional(t.String()),
  last_name: t.Optional(t.String()),
  email: t.Optional(t.String()),
  phone: t.Optional(t.String()),
});
const Channel = t.Union(CHANNELS.map((c) => t.Literal(c)));
const Status = t.Union(
  ['requested', 'tentative', 'confirmed', 'cancelled', 'no_show', 'checked_in', 'checked_out'].map((s) => t.Literal(s)),
);
const OpsBooking = t.Object({
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
  id: t.Optional(t.Integer({ minimum: 1, maximum: 161299, description: 'explicit old-generation booking id' })),
  external_booking_id: t.Optional(t.String({ minLength: 1 })),
  channel_reference: t.Optional(t.String({ minLength: 1 })),
  comment: t.Optional(t.String()),
});
const IdParams = t.Object({ id: t.Numeric() });

/**
 * Operator booking intake (outside the partner spec): the platform's own channels taking bookings
 * (booking engine, dashboard, agency desk, GHA, connected OTAs), and the operator's changes to them. No
 * availability check: these channels already sold the rooms. Added onto the operator API instance, so
 * its operator-token guard covers them.
 */
export function bookingOpsRoutes(deps: Deps) {
  return (app: OpsApp) =>
    app
      .post(
        '/bookings',
        async ({ body, headers, set }) => {
          const propertyId = await propertyIdOf(deps, body.property_id);
          const intakeKey = intakeKeyOf(headers['idempotency-key'], body);
          const result = await createBooking(deps, opsInput(propertyId, body), { intakeKey });
          const view = await opsView(deps, result.booking);
          if (intakeKey && !result.changed) set.headers['idempotency-replayed'] = 'true';
          // A replay names the revision the booking was created with.
          const revisionId = result.revisionId ?? view.revisions.find((r) => r.revision_type === 'created')?.id ?? null;
          return ok({ ...view, revision_id: revisionId });
        },
        {
          body: OpsBooking,
          detail: {
            summary: 'Take a booking on a platform channel',
            description:
              'With an `Idempotency-Key` header (1 to 128 characters) the key is kept with the booking, in its ' +
              'transaction: the same key and body again answers the booking it made (`Idempotency-Replayed: true`) ' +
              'and creates nothing, even after a 503 `errors.qc.write_outcome_unknown`; another body under the key ' +
              'is 409 `errors.qc.idempotency_conflict`.',
          },
        },
      )
      .post(
        '/bookings/seed',
        async ({ body }) => {
          const propertyId = await propertyIdOf(deps, body.property_id);
          const inputs: SeedBooking[] = body.bookings.map((b) => ({
            ...opsInput(propertyId, { ...b, property_id: body.property_id }),
            status: b.status,
          }));
          const rows = await seedBookings(deps, propertyId, inputs);
          return ok({ seeded: rows.length, booking_ids: rows.map((r) => r.id) });
        },
        {
          body: t.Object({
            property_id: t.String(),
            bookings: t.Array(
              t.Composite([t.Omit(OpsBooking, ['property_id']), t.Object({ status: t.Optional(Status) })]),
            ),
          }),
          detail: {
            summary: 'Import existing bookings silently (no revisions, no events) when a property is first connected',
          },
        },
      )
      .get('/bookings/:id', async ({ params }) => ok(await opsView(deps, await bookingById(deps, params.id))), {
        params: IdParams,
      })
      .patch(
        '/bookings/:id',
        async ({ params, body }) => {
          const b = await bookingById(deps, params.id);
          const result = await modifyBooking(deps, b, {
            checkinDate: body.checkin_date,
            checkoutDate: body.checkout_date,
            guest: body.guest && {
              firstName: body.guest.first_name,
              lastName: body.guest.last_name,
              email: body.guest.email,
              phone: body.guest.phone,
            },
            adults: body.adults,
            children: body.children,
            rooms: body.rooms?.map(lineInputOf),
            totalPrice: body.total_price?.amount,
            internalComment: body.comment,
          });
          return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
        },
        {
          params: IdParams,
          body: t.Partial(
            t.Object({
              checkin_date: t.String(),
              checkout_date: t.String(),
              guest: OpsGuest,
              adults: t.Integer({ minimum: 0 }),
              children: t.Integer({ minimum: 0 }),
              rooms: t.Array(OpsRoomLine, { minItems: 1 }),
              total_price: t.Object({ amount: t.Number({ minimum: 0 }) }),
              comment: t.Nullable(t.String()),
            }),
          ),
          detail: { summary: 'Modify a booking (dates, guests, rooms, price, contact: revision; comment alone: none)' },
        },
      )
      .post(
        '/bookings/:id/confirm',
        async ({ params }) => {
          const result = await confirmBooking(deps, await bookingById(deps, params.id));
          return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
        },
        { params: IdParams },
      )
      .post(
        '/bookings/:id/cancel',
        async ({ params, body }) => {
          const result = await cancelBooking(deps, await bookingById(deps, params.id), {
            cancelledBy: body.cancelled_by,
            reasonCode: body.reason_code,
            feeCharged: body.fee_charged,
          });
          return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
        },
        {
          params: IdParams,
          body: t.Object({
            cancelled_by: t.Union([t.Literal('guest'), t.Literal('hotelier'), t.Literal('ota'), t.Literal('system')]),
            reason_code: t.String({ minLength: 1 }),
            fee_charged: t.Optional(t.Number({ minimum: 0 })),
          }),
        },
      )
      .post(
        '/bookings/:id/no-show',
        async ({ params }) => {
          const result = await recordNoShow(deps, await bookingById(deps, params.id));
          return ok({ ...(await opsView(deps, result.booking)), revision_id: result.revisionId });
        },
        { params: IdParams },
      );
}

type OpsBookingBody = typeof OpsBooking.static;

function opsInput(propertyId: number, b: OpsBookingBody): NewBooking {
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
/** The Idempotency-Key of an intake request, with the body's fingerprint; absent: no deduplication. */
function intakeKeyOf(key: string | undefined, body: unknown): IntakeKey | undefined {
  if (key === undefined) return undefined;
  if (key.length < 1 || key.length > 128)
    throw validationError({
      idempotency_key: [`customer.booking.messages.${key.length ? 'max_length' : 'min_length'}`],
    });
  return { key, fingerprint: sha256Hex(JSON.stringify(body)) };
}

async function opsView(deps: Deps, b: BookingRow) {
  const revisions = await deps.db.sql<{ id: number; revision_type: string }>`
    select id, revision_type from booking_revisions where booking_id = ${b.id} order by id`;
  return { ...b, total_amount: Number(b.total_amount), rooms: await bookingRooms(deps.db, b.id), revisions };
}

async function bookingById(deps: Deps, id: number): Promise<BookingRow> {
  const [row] = await deps.db.sql<BookingRow>`select * from bookings where id = ${id}`;
  if (!row) throw notFound();
  return row;
}
