// biome-ignore-all format: one route per line keeps the table readable as a table
import type { RouteSpec } from './route.ts';

/**
 * The one place that maps every modern route to its name, scope and rate-limit bucket. Each feature's
 * route file registers its handler with `{ qc: routes.<key> }`; GET /permissions, endpoint_scopes
 * validation and the auth walk test (server/core/routes/route-table.test.ts) all read this table.
 */
const r = <const T extends Record<string, RouteSpec>>(table: T) => table;

export const routes = r({
  // Properties and catalogue (spec 4.2)

  // Room types and rate plans (spec 4.3)

  // Bookings (spec 4.5)
  revisionsFeed: { name: 'qc.booking_revisions.feed', method: 'GET', path: '/booking_revisions/feed', scope: 'bookings.read', bucket: 'reads', resource: 'booking_revision', summary: 'Unacknowledged booking revisions, ascending' },
  revisionsAck: { name: 'qc.booking_revisions.ack', method: 'POST', path: '/booking_revisions/:revision/ack', scope: 'bookings.read', bucket: 'booking-actions', resource: 'booking_revision', summary: 'Acknowledge a revision for this consumer' },
  bookingsList: { name: 'qc.bookings.list', method: 'GET', path: '/properties/:property/bookings', scope: 'bookings.read', bucket: 'reads', resource: 'booking', summary: 'Bookings of a property, newest first' },
  bookingsHealth: { name: 'qc.bookings.health', method: 'GET', path: '/properties/:property/bookings/health', scope: 'bookings.read', bucket: 'reads', resource: 'booking', summary: 'Feed health for this consumer' },
  bookingsShow: { name: 'qc.bookings.show', method: 'GET', path: '/properties/:property/bookings/:booking', scope: 'bookings.read', bucket: 'reads', resource: 'booking', summary: 'One booking' },
  bookingsCancel: { name: 'qc.bookings.cancel', method: 'POST', path: '/properties/:property/bookings/:booking/cancel', scope: 'bookings.write', bucket: 'booking-actions', resource: 'booking', summary: 'Cancel a booking' },
  bookingsNoShow: { name: 'qc.bookings.no_show', method: 'POST', path: '/properties/:property/bookings/:booking/no_show', scope: 'bookings.write', bucket: 'booking-actions', resource: 'booking', summary: 'Record a no-show' },
  bookingsCreate: { name: 'qc.bookings.create', method: 'POST', path: '/bookings', scope: 'bookings.write', bucket: 'booking-actions', resource: 'booking', summary: 'Partner-originated booking' },
  b2bBookingsCreate: { name: 'qc.agency_bookings.create', method: 'POST', path: '/b2b/bookings', scope: 'bookings.write', bucket: 'booking-actions', resource: 'booking', summary: 'Partner-originated B2B booking' },
  bookingsAck: { name: 'qc.bookings.ack', method: 'POST', path: '/bookings/:booking/ack', scope: 'bookings.read', bucket: 'booking-actions', resource: 'booking', summary: 'Acknowledge every revision of a booking (migration form)' },
  bookingsRoomAssignment: { name: 'qc.bookings.room_assignment', method: 'POST', path: '/bookings/:booking/room-assignment', scope: 'bookings.write', bucket: 'booking-actions', resource: 'booking', summary: 'Room number and self-check-in code' },
  inboundWebhooks: { name: 'qc.inbound_webhooks.receive', method: 'POST', path: '/inbound/webhooks', scope: 'bookings.write', bucket: 'booking-actions', resource: 'inbound_webhook', summary: 'Inbound channel-partner booking webhook' },

  // Subscriptions and webhooks (spec 4.6)
  subscriptionsCreate: { name: 'qc.subscriptions.create', method: 'POST', path: '/subscriptions', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'subscription', summary: 'Subscribe to events' },
  subscriptionsList: { name: 'qc.subscriptions.list', method: 'GET', path: '/subscriptions', scope: 'subscriptions.manage', bucket: 'reads', resource: 'subscription', summary: 'List subscriptions' },
  subscriptionsShow: { name: 'qc.subscriptions.show', method: 'GET', path: '/subscriptions/:subscription', scope: 'subscriptions.manage', bucket: 'reads', resource: 'subscription', summary: 'One subscription' },
  subscriptionsUpdate: { name: 'qc.subscriptions.update', method: 'PATCH', path: '/subscriptions/:subscription', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'subscription', summary: 'Update a subscription' },
  subscriptionsDelete: { name: 'qc.subscriptions.delete', method: 'DELETE', path: '/subscriptions/:subscription', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'subscription', summary: 'Delete a subscription' },
  subscriptionsRotate: { name: 'qc.subscriptions.rotate_secret', method: 'POST', path: '/subscriptions/:subscription/rotate-secret', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'subscription', summary: 'Rotate the signing secret' },
  subscriptionsEnable: { name: 'qc.subscriptions.enable', method: 'POST', path: '/subscriptions/:subscription/enable', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'subscription', summary: 'Re-enable a disabled subscription' },
  eventCatalog: { name: 'qc.event_catalog.list', method: 'GET', path: '/event-catalog', scope: null, bucket: 'reads', resource: 'event', summary: 'Every event type with its data shape' },
  webhookHealth: { name: 'qc.webhook_health.show', method: 'GET', path: '/health/webhooks', scope: 'subscriptions.manage', bucket: 'reads', resource: 'delivery', summary: 'Per-subscription delivery health' },
  deliveriesList: { name: 'qc.deliveries.list', method: 'GET', path: '/deliveries', scope: 'subscriptions.manage', bucket: 'reads', resource: 'delivery', summary: 'Delivery log, filterable by status' },
  deliveriesRedeliver: { name: 'qc.deliveries.redeliver', method: 'POST', path: '/deliveries/:delivery/redeliver', scope: 'subscriptions.manage', bucket: 'config-writes', resource: 'delivery', summary: 'Redeliver a delivery of the last 90 days' },
});

export type RouteKey = keyof typeof routes;
