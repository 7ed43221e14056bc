import { afterAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';
import { retireSubscriptions, subscribe } from '../webhooks/test-support.ts';

/** Spec 5.4 and 6.1: a subscription does not carry a credential past its scopes (booking data needs bookings.read). */
const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));
afterAll(() => retireSubscriptions(t.deps, customer.customerId));

const URL = 'https://pms.example.com/hooks/qc';
const CHALLENGE = 'Bearer error="insufficient_scope", scope="bookings.read"';

/** A credential of the customer that manages subscriptions and reads inventory, but may not read bookings. */
const noBookings = perFile(() =>
  t.client({
    customer_id: customer.customerId,
    scopes: ['subscriptions.manage', 'inventory.read'],
    account_scoped: true,
  }),
);

function expectBookingsReadRefusal(res: { status: number; body: unknown; headers: Headers }): void {
  expect(res.status).toBe(403);
  expect(res.body).toEqual(errorEnvelope('errors.qc.insufficient_scope'));
  expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
}

describe('subscribing to booking events', () => {
  it('refuses a booking event, an alias of one or a list holding one without bookings.read (403 naming the scope)', async () => {
    for (const body of [
      { url: URL, event: 'booking.created' },
      { url: URL, event: 'booking.arrived' },
      { url: URL, event_types: ['inventory.push.completed', 'booking.cancelled'] },
    ]) {
      expectBookingsReadRefusal(await t.request('POST', '/v1/qc/subscriptions', { token: noBookings.token, body }));
    }
    const listed = await t.request('GET', '/v1/qc/subscriptions', { token: noBookings.token });
    expect(listed.body.data.subscriptions).toEqual([]);
  });

  it('refuses before resolving the URL: a host that does not resolve still answers 403', async () => {
    const res = await t.request('POST', '/v1/qc/subscriptions', {
      token: noBookings.token,
      body: { url: 'https://no-such-host.invalid/hooks', event: 'booking.created' },
    });
    expectBookingsReadRefusal(res);
  });

  it('accepts the events whose scope it holds', async () => {
    const made = await subscribe(t, noBookings.token, { url: URL, event_types: ['inventory.push.completed'] });
    expect(made.id).toBeString();
  });

  it('refuses a JWT narrowed at issue to leave bookings.read out, though its client holds it', async () => {
    const client = await t.client({
      customer_id: customer.customerId,
      scopes: ['subscriptions.manage', 'bookings.read'],
      account_scoped: true,
    });
    const narrowed = await t.oauthToken(client.client_id, client.client_secret, 'subscriptions.manage');
    const body = { url: URL, event: 'booking.modified' };
    expectBookingsReadRefusal(await t.request('POST', '/v1/qc/subscriptions', { token: narrowed, body }));
    expect((await t.request('POST', '/v1/qc/subscriptions', { token: client.token, body })).status).toBe(201);
  });
});

describe('updating a subscription of booking events', () => {
  it("refuses to redirect another credential's booking subscription, or to add a booking event, without bookings.read", async () => {
    const theirs = await subscribe(t, customer.token, { url: URL, event: 'booking.created' });
    // The account-scoped credential sees the subscription (it covers its properties), but may not read bookings.
    expect((await t.request('GET', `/v1/qc/subscriptions/${theirs.id}`, { token: noBookings.token })).status).toBe(200);
    const redirect = await t.request('PATCH', `/v1/qc/subscriptions/${theirs.id}`, {
      token: noBookings.token,
      body: { url: 'https://elsewhere.example.com/hooks' },
    });
    expectBookingsReadRefusal(redirect);
    const kept = await t.request('GET', `/v1/qc/subscriptions/${theirs.id}`, { token: customer.token });
    expect(kept.body.data.url).toBe(URL);

    const own = await subscribe(t, noBookings.token, { url: URL, event: 'inventory.push.completed' });
    const widened = await t.request('PATCH', `/v1/qc/subscriptions/${own.id}`, {
      token: noBookings.token,
      body: { event_types: ['inventory.push.completed', 'booking.no_show'] },
    });
    expectBookingsReadRefusal(widened);
  });

  it('lets a credential without bookings.read take the booking events out of a subscription made before the rule', async () => {
    const old = await subscribe(t, noBookings.token, { url: URL, event: 'inventory.push.completed' });
    // As a subscription made before creating one checked the scope is stored.
    await t.deps.db.sql`
      update subscriptions set event_types = array['inventory.push.completed', 'booking.created'] where external_id = ${old.id}`;
    const res = await t.request('PATCH', `/v1/qc/subscriptions/${old.id}`, {
      token: noBookings.token,
      body: { event_types: ['inventory.push.completed'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.event_types).toEqual(['inventory.push.completed']);
  });
});

/**
 * Every event is read under the scope of the route that reads its resource (spec 5.4, README Webhooks): a credential
 * holding only subscriptions.manage may subscribe to subscription.* and property.* events, and nothing else.
 */
describe('subscribing to events read under another scope', () => {
  const onlyManage = perFile(() =>
    t.client({ customer_id: customer.customerId, scopes: ['subscriptions.manage'], account_scoped: true }),
  );
  const NEEDS = {
    'inventory.push.completed': 'inventory.read',
    'room_type.created': 'inventory.read',
    'rate_plan.updated': 'inventory.read',
    'catalogue.replaced': 'properties.manage',
    'catalogue_sync.completed': 'properties.manage',
    'payment_policy.updated': 'properties.manage',
    'promotion.created': 'properties.manage',
    'age_groups.updated': 'properties.manage',
    'guest_feedback.created': 'properties.manage',
    'review.received': 'properties.manage',
    'gallery_image.created': 'properties.manage',
    'auto_email_template.created': 'properties.manage',
  } as const;

  it('refuses each without its scope (403 naming it) and accepts it from a credential holding it', async () => {
    for (const [event, scope] of Object.entries(NEEDS)) {
      const refused = await t.request('POST', '/v1/qc/subscriptions', {
        token: onlyManage.token,
        body: { url: URL, event },
      });
      expect({ event, status: refused.status, challenge: refused.headers.get('www-authenticate') }).toEqual({
        event,
        status: 403,
        challenge: `Bearer error="insufficient_scope", scope="${scope}"`,
      });
      const holder = await t.client({
        customer_id: customer.customerId,
        scopes: ['subscriptions.manage', scope],
        account_scoped: true,
      });
      expect((await subscribe(t, holder.token, { url: URL, event })).id).toBeString();
    }
  });

  it('accepts subscription.* and property.* events with subscriptions.manage alone', async () => {
    const made = await subscribe(t, onlyManage.token, {
      url: URL,
      event_types: ['subscription.created', 'property.updated', 'property.mode_changed'],
    });
    expect(made.id).toBeString();
  });
});
