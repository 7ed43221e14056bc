import type { TSchema } from '@sinclair/typebox';
// Elysia's `t` registers the string formats (uuid, date, date-time) the relay's data check relies on.
import { t as T } from 'elysia';
import type { Scope } from './auth/scopes.ts';
import { Day } from './http/day-schema.ts';

/**
 * The event catalogue (GET /event-catalog): every event type the service emits, with the shape of its
 * `data`. Only events that some `recordEvent` call really emits belong here; event-catalog.rule.test.ts fails
 * when an entry has no emitter. `aliasOf` names a subscription alias: subscribing to the alias delivers
 * the one event of its target under the alias name (never a second webhook for the same change). `scope` is what
 * a subscriber must hold beside subscriptions.manage, because the event's `data` is what that scope reads on the API
 * (the route that reads the resource, spec 5.4); only subscription.* events need none beyond subscriptions.manage,
 * and property.* none at all (GET /properties/{id} needs no scope). `listsProperties` marks an event without a
 * property of its own whose `data` lists property external ids: the relay sends each subscription only what its
 * property filter covers (relay-properties.ts). README, Webhooks: one table of every event, its data and its rule.
 */
export interface EventSpec {
  type: string;
  group: 'bookings' | 'inventory' | 'properties' | 'structure' | 'policies' | 'configuration' | 'subscriptions';
  description: string;
  data: TSchema;
  example: Record<string, unknown>;
  aliasOf?: string;
  scope?: Scope;
  listsProperties?: PropertyLists;
}

/**
 * The `data` fields (arrays of property external ids) of an account-level event that name properties. `each`: every
 * id outside the subscription's properties is left out of its copy, and a subscription left with none is not sent
 * the event (a job over several properties: each subscriber learns what happened to its own). `all`: the event is
 * sent only to a subscription that covers every listed property, untouched (a record targeting several properties,
 * which the API shows only to a credential granted all of them).
 */
export interface PropertyLists {
  fields: readonly string[];
  covered: 'each' | 'all';
}

const Uuid = T.String({ format: 'uuid' });
const SellType = T.Union([T.Literal('per_room'), T.Literal('per_person'), T.Literal('per_occupancy')]);
// Events are additive: a receiver must ignore fields it does not know (spec 9.1).
const Data = <P extends Record<string, TSchema>>(properties: P) => T.Object(properties, { additionalProperties: true });

const EXAMPLE_PROPERTY = '7d0e1b2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
const EXAMPLE_SUBSCRIPTION = '5b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const BookingData = Data({
  booking_id: T.String({ description: 'external_booking_id' }),
  revision_id: T.Union([T.Integer(), T.Null()], {
    description: 'the feed revision this change produced (booking.assigned: the latest revision, no new one)',
  }),
  checkin_date: Day,
  checkout_date: Day,
});
const bookingExample = {
  booking_id: 'QDO-20260412-0042',
  revision_id: 1842,
  checkin_date: '2026-05-01',
  checkout_date: '2026-05-04',
};

const booking = (type: string, description: string): EventSpec => ({
  type,
  group: 'bookings',
  description,
  data: BookingData,
  example: bookingExample,
  // booking_id, revision_id and the stay dates are what GET /bookings and the feed answer under bookings.read.
  scope: 'bookings.read',
});

const SubscriptionData = Data({
  subscription_id: Uuid,
  url: T.String(),
  event_types: T.Array(T.String()),
  status: T.Union([T.Literal('active'), T.Literal('disabled')]),
});
const subscriptionExample = {
  subscription_id: EXAMPLE_SUBSCRIPTION,
  url: 'https://pms.example.com/hooks/qc',
  event_types: ['booking.created', 'booking.cancelled'],
  status: 'active',
};

/**
 * A configuration record's event (spec 4.7): the property and the record's id, plus any extra fields. The
 * example carries the same example ids every time.
 */
const configEvent = (
  type: string,
  group: EventSpec['group'],
  description: string,
  idField: string,
  extra: Record<string, TSchema> = {},
): EventSpec => ({
  type,
  group,
  description,
  data: Data({ property_id: Uuid, [idField]: Uuid, ...extra }),
  // Policies, extra services, promotions and special offers: every one read under properties.manage (spec 4.7).
  scope: 'properties.manage',
  example: {
    property_id: EXAMPLE_PROPERTY,
    [idField]: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
    ...Object.fromEntries(Object.keys(extra).map((k) => [k, CONFIG_EXAMPLES[k]])),
  },
});
const CONFIG_EXAMPLES: Record<string, unknown> = { pay_type: 'be_arr', rules: 2 };

const EXAMPLE_IMAGE = '6a7b8c9d-0e1f-4a2b-9c3d-4e5f6a7b8c9d';
const EXAMPLE_RECORD = '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';

/**
 * Configuration surfaces II (gallery, content pages, guest feedback, reviews, auto-email templates): every one is
 * read under properties.manage (spec 4.7), which the list below adds to each entry.
 */
const CONFIGURATION_EVENTS: readonly EventSpec[] = (
  [
    {
      type: 'gallery_image.created',
      group: 'configuration',
      description:
        'An image joined the account gallery (uploaded, or a registered legacy file). Account-level: no property.',
      data: Data({
        image_id: Uuid,
        url: T.String(),
        content_type: T.String(),
        byte_size: T.Integer(),
        source: T.Union([T.Literal('upload'), T.Literal('legacy_file')]),
      }),
      example: {
        image_id: EXAMPLE_IMAGE,
        url: `https://qc.example.com/media/gallery/${EXAMPLE_IMAGE}.jpg`,
        content_type: 'image/jpeg',
        byte_size: 182044,
        source: 'upload',
      },
    },
    {
      type: 'gallery_image.deleted',
      group: 'configuration',
      description: 'An image left the gallery; severed_usages counts the usages a forced delete removed.',
      data: Data({ image_id: Uuid, severed_usages: T.Integer() }),
      example: { image_id: EXAMPLE_IMAGE, severed_usages: 0 },
    },
    ...['created', 'updated'].map(
      (action): EventSpec => ({
        type: `content_page.${action}`,
        group: 'configuration',
        description: `A content page was ${action}.`,
        data: Data({ property_id: Uuid, content_page_id: Uuid, slug: T.String() }),
        example: { property_id: EXAMPLE_PROPERTY, content_page_id: EXAMPLE_RECORD, slug: 'house-rules' },
      }),
    ),
    {
      type: 'content_page.deleted',
      group: 'configuration',
      description:
        'A content page was deleted; stripped_guide_items counts the guest-guide items that lost their reference.',
      data: Data({ property_id: Uuid, content_page_id: Uuid, slug: T.String(), stripped_guide_items: T.Integer() }),
      example: {
        property_id: EXAMPLE_PROPERTY,
        content_page_id: EXAMPLE_RECORD,
        slug: 'house-rules',
        stripped_guide_items: 1,
      },
    },
    {
      type: 'guest_guide.updated',
      group: 'configuration',
      description: "The property's guest guide was replaced; items counts its content items.",
      data: Data({ property_id: Uuid, items: T.Integer() }),
      example: { property_id: EXAMPLE_PROPERTY, items: 4 },
    },
    ...['created', 'updated', 'deleted'].map(
      (action): EventSpec => ({
        type: `auto_email_template.${action}`,
        group: 'configuration',
        description: `An auto-email template was ${action}. Account-level: no property; property_ids lists its targets. Sent only to subscriptions covering every target, as the API shows a template only to a credential granted all of them.`,
        data: Data({ template_id: Uuid, event: T.String(), property_ids: T.Array(Uuid) }),
        listsProperties: { fields: ['property_ids'], covered: 'all' },
        example: { template_id: EXAMPLE_RECORD, event: 'booking.created', property_ids: [EXAMPLE_PROPERTY] },
      }),
    ),
    {
      type: 'amenities.updated',
      group: 'configuration',
      description: 'The amenities of a property (room_type_id null) or of one room type were replaced.',
      data: Data({ property_id: Uuid, room_type_id: T.Union([Uuid, T.Null()]), amenity_ids: T.Array(T.String()) }),
      example: { property_id: EXAMPLE_PROPERTY, room_type_id: null, amenity_ids: ['HAC.68', 'HAC.79'] },
    },
    {
      type: 'review.received',
      group: 'configuration',
      description: 'A new review arrived from a channel (inbound channel webhook or operator intake).',
      data: Data({ property_id: Uuid, review_id: Uuid, channel: T.String(), rating: T.Number() }),
      example: { property_id: EXAMPLE_PROPERTY, review_id: EXAMPLE_RECORD, channel: 'BDC', rating: 8.5 },
    },
    ...(
      [
        ['replied', 'The hotel replied to a review; the reply is on its way to the channel.'],
        ['reply_sent', 'The channel accepted the reply (attempts: how many sends it took).'],
        ['reply_failed', 'The reply could not be delivered to the channel after every retry.'],
      ] as const
    ).map(
      ([action, description]): EventSpec => ({
        type: `review.${action}`,
        group: 'configuration',
        description,
        data: Data({ property_id: Uuid, review_id: Uuid, channel: T.String(), attempts: T.Optional(T.Integer()) }),
        example: { property_id: EXAMPLE_PROPERTY, review_id: EXAMPLE_RECORD, channel: 'BDC', attempts: 1 },
      }),
    ),
    ...['created', 'updated', 'deleted'].map(
      (action): EventSpec => ({
        type: `guest_feedback.${action}`,
        group: 'configuration',
        description: `Guest feedback for a booking was ${action}.`,
        // properties.manage, not bookings.read: GET guest_feedback answers the booking_id (with the stay dates and the
        // guest's first name) under properties.manage (spec 4.7), so the event tells its subscriber nothing more.
        data: Data({
          property_id: Uuid,
          feedback_id: Uuid,
          booking_id: T.String({ description: 'external_booking_id' }),
        }),
        example: { property_id: EXAMPLE_PROPERTY, feedback_id: EXAMPLE_RECORD, booking_id: 'QDO-20260412-0042' },
      }),
    ),
  ] satisfies EventSpec[]
).map((e): EventSpec => ({ ...e, scope: 'properties.manage' }));

export const EVENT_CATALOG: readonly EventSpec[] = [
  booking('booking.created', 'A new booking landed (created revision in the feed).'),
  {
    ...booking(
      'booking.arrived',
      'Alias of booking.created: subscribing to it delivers the same single event under this name.',
    ),
    aliasOf: 'booking.created',
  },
  booking('booking.modified', 'A material change to an accepted booking (dates, guests, rooms, price, contact data).'),
  booking('booking.confirmed', 'A tentative booking was confirmed.'),
  booking('booking.cancelled', 'The booking was cancelled.'),
  booking('booking.no_show', 'A no-show was recorded.'),
  booking('booking.assigned', 'A physical room number was assigned to the booking.'),
  {
    type: 'inventory.push.completed',
    group: 'inventory',
    // The push's counters describe the calendar that GET availability and rates answer under inventory.read.
    scope: 'inventory.read',
    description: 'An inventory push to a live property was written: its row counts and day-row counters.',
    data: Data({
      endpoint: T.String({
        description:
          'route name: qc.inventory.availability, qc.inventory.rates, qc.inventory.restrictions, qc.rates.write',
      }),
      property_id: Uuid,
      success: T.Integer({ description: 'rows accepted' }),
      failed: T.Integer({ description: 'rows refused (reported in warnings or row errors)' }),
      written: T.Integer(),
      unchanged: T.Integer(),
      skipped_out_of_window: T.Integer(),
      dry: T.Boolean(),
    }),
    example: {
      endpoint: 'qc.inventory.availability',
      property_id: EXAMPLE_PROPERTY,
      success: 12,
      failed: 0,
      written: 62,
      unchanged: 4,
      skipped_out_of_window: 0,
      dry: false,
    },
  },
  {
    type: 'property.created',
    group: 'properties',
    description: 'A property was created through POST /properties.',
    data: Data({ property_id: Uuid, partner_code: T.Union([T.String(), T.Null()]), mode: T.String() }),
    example: { property_id: EXAMPLE_PROPERTY, partner_code: 'SEASIDE', mode: 'shadow' },
  },
  {
    type: 'property.updated',
    group: 'properties',
    description: 'partner_code or partner_name of a property changed.',
    data: Data({
      property_id: Uuid,
      partner_code: T.Union([T.String(), T.Null()]),
      partner_name: T.Union([T.String(), T.Null()]),
    }),
    example: { property_id: EXAMPLE_PROPERTY, partner_code: 'SEASIDE', partner_name: 'Seaside Hotel' },
  },
  {
    type: 'property.mode_changed',
    group: 'properties',
    description: 'The operator flipped the property between shadow and live.',
    data: Data({
      property_id: Uuid,
      mode: T.Union([T.Literal('shadow'), T.Literal('live')]),
      previous_mode: T.Union([T.Literal('shadow'), T.Literal('live')]),
    }),
    example: { property_id: EXAMPLE_PROPERTY, mode: 'live', previous_mode: 'shadow' },
  },
  {
    type: 'catalogue.replaced',
    group: 'structure',
    scope: 'properties.manage',
    description: "The property's partner catalogue (rooms, rates, meals) was replaced; counts of the new entries.",
    data: Data({
      property_id: Uuid,
      rooms: T.Integer(),
      rates: T.Integer(),
      meals: T.Integer(),
      source: T.Union([T.Literal('put'), T.Literal('catalogue_sync')]),
    }),
    example: { property_id: EXAMPLE_PROPERTY, rooms: 4, rates: 3, meals: 2, source: 'put' },
  },
  {
    type: 'catalogue_sync.completed',
    group: 'structure',
    description:
      "A group-level catalogue-sync job finished: properties whose catalogue was replaced or cleared, only those of the subscription's properties (a subscription with none of them is not sent the job); failed counts the job's refused entries.",
    scope: 'properties.manage',
    listsProperties: { fields: ['replaced', 'cleared'], covered: 'each' },
    data: Data({ job_id: T.String(), replaced: T.Array(Uuid), cleared: T.Array(Uuid), failed: T.Integer() }),
    example: { job_id: '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f', replaced: [EXAMPLE_PROPERTY], cleared: [], failed: 0 },
  },
  {
    type: 'room_type.created',
    group: 'structure',
    scope: 'inventory.read',
    description: 'A room type was created.',
    data: Data({ property_id: Uuid, room_type_id: Uuid, partner_code: T.Union([T.String(), T.Null()]) }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      room_type_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      partner_code: 'DBL',
    },
  },
  {
    type: 'room_type.updated',
    group: 'structure',
    scope: 'inventory.read',
    description: 'partner_code or partner_name of a room type changed.',
    data: Data({
      property_id: Uuid,
      room_type_id: Uuid,
      partner_code: T.Union([T.String(), T.Null()]),
      partner_name: T.Union([T.String(), T.Null()]),
    }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      room_type_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      partner_code: 'DBL',
      partner_name: 'Double room',
    },
  },
  {
    type: 'rate_plan.created',
    group: 'structure',
    scope: 'inventory.read',
    description: 'A rate plan was created on one or more room types.',
    data: Data({
      property_id: Uuid,
      rate_plan_id: Uuid,
      room_type_ids: T.Array(Uuid),
      sell_type: SellType,
      parent_rate_plan_id: T.Union([Uuid, T.Null()]),
    }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      rate_plan_id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
      room_type_ids: ['1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      sell_type: 'per_room',
      parent_rate_plan_id: null,
    },
  },
  {
    type: 'rate_plan.updated',
    group: 'structure',
    scope: 'inventory.read',
    description: 'Sell type or occupancy rates of a rate plan changed.',
    data: Data({
      property_id: Uuid,
      rate_plan_id: Uuid,
      room_type_ids: T.Array(Uuid),
      sell_type: SellType,
      previous_sell_type: SellType,
      parent_rate_plan_id: T.Union([Uuid, T.Null()]),
    }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      rate_plan_id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
      room_type_ids: ['1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      sell_type: 'per_person',
      previous_sell_type: 'per_room',
      parent_rate_plan_id: null,
    },
  },
  {
    type: 'payment_policy.created',
    group: 'policies',
    scope: 'properties.manage',
    description: 'A payment policy was created (placeholder is true for the one seeded on first rate plan).',
    data: Data({ property_id: Uuid, payment_policy_id: Uuid, placeholder: T.Boolean() }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      payment_policy_id: '3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b',
      placeholder: false,
    },
  },
  {
    type: 'cancellation_policy.created',
    group: 'policies',
    scope: 'properties.manage',
    description: 'A cancellation policy was created (placeholder is true for the one seeded on first rate plan).',
    data: Data({ property_id: Uuid, cancellation_policy_id: Uuid, placeholder: T.Boolean() }),
    example: {
      property_id: EXAMPLE_PROPERTY,
      cancellation_policy_id: '4f5a6b7c-8d9e-4f0a-9b1c-2d3e4f5a6b7c',
      placeholder: false,
    },
  },
  configEvent('payment_policy.updated', 'policies', 'A payment policy changed; audit only.', 'payment_policy_id', {
    pay_type: T.String(),
  }),
  configEvent(
    'payment_policy.deleted',
    'policies',
    'A payment policy no rate plan used was deleted.',
    'payment_policy_id',
  ),
  configEvent(
    'cancellation_policy.updated',
    'policies',
    'A cancellation policy changed (bookings already made keep their snapshot); audit only.',
    'cancellation_policy_id',
    { rules: T.Integer({ description: 'number of rules now in data[]' }) },
  ),
  configEvent(
    'cancellation_policy.deleted',
    'policies',
    'A cancellation policy no rate plan used was deleted.',
    'cancellation_policy_id',
  ),
  {
    type: 'age_groups.updated',
    group: 'configuration',
    scope: 'properties.manage',
    description: "A property's age brackets changed; they apply from the next quote.",
    data: Data({ property_id: Uuid, is_active: T.Boolean(), changed_groups: T.Array(T.String()) }),
    example: { property_id: EXAMPLE_PROPERTY, is_active: true, changed_groups: ['C'] },
  },
  configEvent('extra_service.created', 'configuration', 'An extra service was created.', 'extra_service_id'),
  configEvent('extra_service.updated', 'configuration', 'An extra service changed.', 'extra_service_id'),
  configEvent('extra_service.deleted', 'configuration', 'An extra service was deleted.', 'extra_service_id'),
  configEvent('promotion.created', 'configuration', 'A promotion was created.', 'promotion_id'),
  configEvent(
    'promotion.updated',
    'configuration',
    'A promotion changed; quotes apply it as it is now.',
    'promotion_id',
  ),
  configEvent('promotion.deleted', 'configuration', 'A promotion was deleted.', 'promotion_id'),
  configEvent(
    'special_offer.created',
    'configuration',
    'A special offer was added to a booking button.',
    'special_offer_id',
  ),
  configEvent('special_offer.updated', 'configuration', 'A special offer changed.', 'special_offer_id'),
  configEvent('special_offer.deleted', 'configuration', 'A special offer was deleted.', 'special_offer_id'),
  {
    type: 'subscription.created',
    group: 'subscriptions',
    description: 'A webhook subscription was created (the new subscription receives it too when it subscribes to it).',
    data: SubscriptionData,
    example: subscriptionExample,
  },
  {
    type: 'subscription.updated',
    group: 'subscriptions',
    description: 'URL, event types or properties of a subscription changed.',
    data: SubscriptionData,
    example: subscriptionExample,
  },
  {
    type: 'subscription.deleted',
    group: 'subscriptions',
    description: 'A subscription was deleted; its outstanding deliveries are dead.',
    data: SubscriptionData,
    example: subscriptionExample,
  },
  {
    type: 'subscription.disabled',
    group: 'subscriptions',
    description: 'A subscription was disabled after more than 72 hours of failed deliveries without a success.',
    data: Data({
      subscription_id: Uuid,
      url: T.String(),
      reason: T.Literal('failing'),
      failing_since: T.String({ format: 'date-time' }),
    }),
    example: {
      subscription_id: EXAMPLE_SUBSCRIPTION,
      url: 'https://pms.example.com/hooks/qc',
      reason: 'failing',
      failing_since: '2026-04-09T08:00:00.000Z',
    },
  },
  {
    type: 'subscription.enabled',
    group: 'subscriptions',
    description: 'A disabled subscription was enabled again (POST /subscriptions/{id}/enable).',
    data: SubscriptionData,
    example: subscriptionExample,
  },
  {
    type: 'subscription.secret_rotated',
    group: 'subscriptions',
    description:
      'The signing secret was rotated; the previous one signs retries of older deliveries until the time given.',
    data: Data({ subscription_id: Uuid, previous_secret_expires_at: T.String({ format: 'date-time' }) }),
    example: { subscription_id: EXAMPLE_SUBSCRIPTION, previous_secret_expires_at: '2026-04-13T10:00:00.000Z' },
  },
  ...CONFIGURATION_EVENTS,
];

const byType = new Map(EVENT_CATALOG.map((e) => [e.type, e]));

export function eventSpec(type: string): EventSpec | undefined {
  return byType.get(type);
}

/** Subscription names that receive an emitted event type: the type itself and its aliases. */
export function subscriptionNamesFor(type: string): string[] {
  return [type, ...EVENT_CATALOG.filter((e) => e.aliasOf === type).map((e) => e.type)];
}

/** The scope a credential must hold to subscribe to, and be sent, an event of this type (name or alias). */
export function scopeToReceive(type: string): Scope | undefined {
  return byType.get(type)?.scope;
}

/** The catalogue's entries as GET /event-catalog answers them. */
export function eventCatalog() {
  return EVENT_CATALOG.map((e) => ({
    type: e.type,
    group: e.group,
    description: e.description,
    alias_of: e.aliasOf ?? null,
    scope: e.scope ?? null,
    data_schema: e.data,
    example: e.example,
  }));
}
