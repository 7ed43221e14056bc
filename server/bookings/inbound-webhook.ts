import { Value } from '@sinclair/typebox/value';
import { t } from 'elysia';
import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { DayText } from '../core/http/day-schema.ts';
import { refuseUnstorable } from '../core/http/read-body.ts';
import { fieldErrorsFrom } from '../core/http/validation.ts';
import { findProperty, type PropertyRow } from '../core/resolve.ts';
import { InboundReviewPayload, isReviewPayload, receiveInboundReview } from '../reviews/inbound-review.ts';
import { INBOUND_CHANNELS } from './channels.ts';
import {
  BookingRefused,
  cancelBooking,
  confirmBooking,
  createBooking,
  modifyBooking,
  type NewBooking,
} from './intake.ts';
import { lineInputOf } from './lines.ts';
import { Guest, Money, RoomLine } from './model.ts';
import type { BookingRow } from './snapshot.ts';

/**
 * The inbound channel-partner webhook: `POST /inbound/webhooks?channel=<code>` with one reservation as
 * JSON. The channel sits in the query so it is checked before the body is read (400 missing_channel /
 * unknown_channel); the raw body is parsed here (malformed JSON is 422 payload_invalid, not the generic
 * validation error); `external_property_id` must name a property the credential may act on (422
 * missing_property otherwise).
 *
 * Each delivery is an upsert keyed by (property, channel, reservation_id), applied in one actor turn:
 * unknown reservation -> created (then cancelled if it arrives cancelled); known -> modified when its
 * content differs, confirmed when it turns from tentative, cancelled when status says so. A redelivery of
 * the same content changes nothing, so retries never duplicate a booking or a revision. The channel already
 * sold the rooms: no availability check here (an overbooking shows as negative free rooms, see holdings.ts).
 */
export const InboundReservation = t.Object({
  external_property_id: t.String({ minLength: 1 }),
  reservation_id: t.String({ minLength: 1, maxLength: 100 }),
  revision_id: t.Optional(t.String({ maxLength: 100 })),
  status: t.Optional(t.Union([t.Literal('confirmed'), t.Literal('tentative'), t.Literal('cancelled')])),
  guest: Guest,
  checkin_date: DayText,
  checkout_date: DayText,
  rooms: t.Array(RoomLine, { minItems: 1, maxItems: 20 }),
  total_price: Money,
  cancellation: t.Optional(
    t.Object({
      reason_code: t.Optional(t.String({ maxLength: 64 })),
      fee_charged: t.Optional(t.Number({ minimum: 0 })),
    }),
  ),
});

type Reservation = typeof InboundReservation.static;
type Outcome = 'created' | 'modified' | 'confirmed' | 'cancelled' | 'unchanged';

const RESOURCE = 'inbound_webhook';
const payloadInvalid = (extra: Record<string, unknown> = {}) =>
  new ApiError('errors.qc.webhook.payload_invalid', extra);

/**
 * One inbound delivery: the channel (query), then the raw body parsed and checked, then the upsert in the
 * property's turn. Answers the booking, the outcome and the revisions it appended, with the body as parsed and
 * the schema it was read against: the pipeline never saw it as JSON, so the route names its undeclared fields.
 */
export async function receiveReservation(deps: Deps, principal: Principal, channel: string | null, raw: string) {
  if (!channel) throw new ApiError('errors.qc.webhook.missing_channel');
  if (!INBOUND_CHANNELS.includes(channel)) throw new ApiError('errors.qc.webhook.unknown_channel');
  const reservation = await parseReservation(deps, principal, raw);
  if ('review' in reservation) {
    const answer = await receiveInboundReview(deps, reservation.property, channel, reservation.review);
    return { answer, body: reservation.review, schema: InboundReviewPayload };
  }
  const answer = await applyReservation(deps, reservation.property, channel, reservation.data);
  return { answer, body: reservation.data, schema: InboundReservation };
}

async function parseReservation(
  deps: Deps,
  principal: Principal,
  raw: string,
): Promise<{ property: PropertyRow; data: Reservation } | { property: PropertyRow; review: unknown }> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw payloadInvalid();
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw payloadInvalid();
  const propertyId = (json as { external_property_id?: unknown }).external_property_id;
  if (typeof propertyId !== 'string' || !propertyId) throw new ApiError('errors.qc.webhook.missing_property');
  // Only a property the credential may not act on is missing_property; a failed lookup propagates as what it is.
  const property = await findProperty(deps.db, principal, propertyId);
  if (!property) throw new ApiError('errors.qc.webhook.missing_property');
  // Channels deliver reviews on the same endpoint: `{"kind": "review", ...}` (server/reviews/inbound-review.ts).
  if (isReviewPayload(json)) {
    refuseUnstorablePayload(json);
    return { property, review: json };
  }
  if (!Value.Check(InboundReservation, json)) {
    const errors = [...Value.Errors(InboundReservation, json)] as unknown as Parameters<typeof fieldErrorsFrom>[0];
    throw payloadInvalid({ errors: fieldErrorsFrom(errors, RESOURCE) });
  }
  refuseUnstorablePayload(json);
  return { property, data: json };
}

/**
 * The pipeline checks the raw text; a `\ud800` escape only becomes a lone surrogate once parsed, and PostgreSQL
 * would store it as U+FFFD: refused like a NUL, the field named, in a reservation and a review alike (a review's
 * was stored as U+FFFD).
 */
function refuseUnstorablePayload(json: object): void {
  try {
    refuseUnstorable(json, RESOURCE);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    throw payloadInvalid({ errors: err.extra.errors });
  }
}

async function applyReservation(deps: Deps, property: PropertyRow, channel: string, r: Reservation) {
  try {
    return await deps.actors.run(property.id, async (tx) => {
      const [known] = await tx.sql<BookingRow>`
        select * from bookings where property_id = ${property.id} and source_channel = ${channel} and channel_reference = ${r.reservation_id}`;
      const revisionIds: number[] = [];
      const outcomes: Outcome[] = [];
      const step = (outcome: Outcome, result: { revisionId: number | null; changed: boolean; booking: BookingRow }) => {
        if (result.revisionId !== null) revisionIds.push(result.revisionId);
        if (result.changed) outcomes.push(outcome);
        return result.booking;
      };
      let booking = known
        ? step('modified', await modifyBooking(deps, known, changesOf(r)))
        : step('created', await createBooking(deps, inputOf(property, channel, r)));
      if (r.status === 'cancelled') {
        booking = step(
          'cancelled',
          await cancelBooking(deps, booking, {
            cancelledBy: 'ota',
            reasonCode: r.cancellation?.reason_code ?? 'channel_cancellation',
            feeCharged: r.cancellation?.fee_charged,
            externalRevisionId: revisionReference(r),
          }),
        );
      } else if (
        known &&
        r.status !== 'tentative' &&
        (booking.status === 'tentative' || booking.status === 'requested')
      ) {
        booking = step('confirmed', await confirmBooking(deps, booking, revisionReference(r)));
      }
      return {
        booking_id: booking.external_booking_id,
        inbound_booking_id: booking.id,
        outcome: outcomes.at(-1) ?? 'unchanged',
        revision_ids: revisionIds,
      };
    });
  } catch (err) {
    if (err instanceof BookingRefused) throw payloadInvalid({ reason: err.reason });
    throw err;
  }
}

function inputOf(property: PropertyRow, channel: string, r: Reservation): NewBooking {
  return {
    ...changesOf(r),
    propertyId: property.id,
    channel,
    channelReference: r.reservation_id,
    currency: r.total_price.currency,
    tentative: r.status === 'tentative',
  };
}

function changesOf(r: Reservation) {
  return {
    guest: {
      firstName: r.guest.first_name,
      lastName: r.guest.last_name,
      email: r.guest.email ?? '',
      phone: r.guest.phone ?? '',
    },
    checkinDate: r.checkin_date,
    checkoutDate: r.checkout_date,
    rooms: r.rooms.map(lineInputOf),
    totalPrice: r.total_price.amount,
    externalRevisionId: revisionReference(r),
  };
}

/**
 * Every revision a delivery appends (created, modified, confirmed, cancelled) carries the reference the channel
 * sent with it, null when it sent none: a cancellation or confirmation kept the previous delivery's.
 */
function revisionReference(r: Reservation): string | null {
  return r.revision_id ?? null;
}
