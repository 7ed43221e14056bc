import { t } from 'elysia';
import { ok, okSchema } from '../core/http/envelope.ts';
import { noteUndeclaredFields } from '../core/http/undeclared-fields.ts';
import { defineRoute } from '../core/routes/route.ts';
import { INBOUND_CHANNELS } from './channels.ts';
import { receiveReservation } from './inbound-webhook.ts';

export const receiveInboundWebhook = defineRoute({
  name: 'qc.inbound_webhooks.receive',
  method: 'POST',
  path: '/inbound/webhooks',
  scope: 'bookings.write',
  bucket: 'booking-actions',
  resource: 'inbound_webhook',
  summary: 'Inbound channel-partner booking webhook',
  tags: ['bookings'],
  description:
    `Query channel (${INBOUND_CHANNELS.join(', ')}); JSON body: external_property_id, reservation_id, optional revision_id, ` +
    'status (confirmed, tentative, cancelled), guest, checkin_date, checkout_date, rooms[], total_price, optional cancellation. ' +
    'Upsert by reservation_id: redeliveries change nothing. A review: `{"kind": "review", external_property_id, review: ' +
    '{channel_review_id, rating, rating_scale?, title?, body?, reviewer_name?, language?, stayed_on?, booking_id?, submitted_at}}`, ' +
    'upserted by channel_review_id, answers `{review_id, outcome}`.',
  // The body is read as text and parsed by the domain: malformed JSON is payload_invalid, not a generic 422.
  parse: 'text',
  response: okSchema(
    t.Union([
      t.Object({
        booking_id: t.String(),
        inbound_booking_id: t.Integer(),
        outcome: t.Union(['created', 'modified', 'confirmed', 'cancelled', 'unchanged'].map((o) => t.Literal(o))),
        revision_ids: t.Array(t.Integer()),
      }),
      t.Object({
        review_id: t.String({ format: 'uuid' }),
        outcome: t.Union(['created', 'updated', 'unchanged'].map((o) => t.Literal(o))),
      }),
    ]),
  ),
  errors: [
    'errors.qc.webhook.missing_channel',
    'errors.qc.webhook.unknown_channel',
    'errors.qc.webhook.missing_property',
    'errors.qc.webhook.payload_invalid',
  ],
  async handle({ deps, principal, body, request }) {
    const channel = new URL(request.url).searchParams.get('channel');
    const received = await receiveReservation(deps, principal, channel, typeof body === 'string' ? body : '');
    noteUndeclaredFields(received.schema, request, received.body);
    return ok(received.answer);
  },
});
