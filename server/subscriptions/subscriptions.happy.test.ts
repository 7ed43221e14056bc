import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { subscriberDemoPerFile } from '../webhooks/test-support.ts';

const URL_A = 'https://pms.example.com/hooks/qc';
const URL_B = 'https://pms.example.com/hooks/qc-v2';

describe('subscriptions', () => {
  let token: string;

  const t = testAppPerFile();
  const demo = subscriberDemoPerFile(t);
  beforeAll(async () => {
    token = demo.personal_token;
  });

  // Destinations are not resolved with QC_WEBHOOK_ALLOW_PRIVATE=1 (the harness default), so example.com is fine.
  it('creates with url and event_types, answering 201 with the secret once', async () => {
    const live = demo.properties[0];
    const res = await t.request('POST', '/v1/qc/subscriptions', {
      token,
      body: {
        url: URL_A,
        event_types: ['booking.created', 'booking.cancelled', 'booking.created'],
        property_ids: [live?.external_property_id],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('ok');
    const data = res.body.data;
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data).toMatchObject({
      url: URL_A,
      event_types: ['booking.created', 'booking.cancelled'],
      property_ids: [live?.external_property_id],
      all_properties: false,
      status: 'active',
      disabled_at: null,
      failing_since: null,
    });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const show = await t.request('GET', `/v1/qc/subscriptions/${data.id}`, { token });
    expect(show.status).toBe(200);
    expect(show.body.data).toEqual(Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'secret')));
    expect(show.text).not.toContain(data.secret);
  });

  it('accepts target_url and a single event, and property partner codes', async () => {
    const [live, shadow] = demo.properties;
    const res = await t.request('POST', '/v1/qc/subscriptions', {
      token,
      body: {
        target_url: URL_B,
        event: 'booking.arrived',
        property_ids: [shadow?.partner_code, live?.external_property_id.toUpperCase()],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ url: URL_B, event_types: ['booking.arrived'] });
    expect([...res.body.data.property_ids].sort()).toEqual(
      [live?.external_property_id, shadow?.external_property_id].sort(),
    );
  });

  it('follows every property the credential sees when property_ids is left out', async () => {
    const accountWide = await t.request('POST', '/v1/qc/subscriptions', {
      token,
      body: { url: URL_A, event: 'booking.modified' },
    });
    expect(accountWide.body.data).toMatchObject({ all_properties: true, property_ids: [] });

    const live = demo.properties[0]?.external_property_id ?? '';
    const fixed = await t.client({
      customer_id: demo.customer_id,
      scopes: ['subscriptions.manage', 'bookings.read'],
      property_ids: [live],
    });
    const limited = await t.request('POST', '/v1/qc/subscriptions', {
      token: fixed.token,
      body: { url: URL_A, event: 'booking.modified' },
    });
    expect(limited.body.data).toMatchObject({ all_properties: false, property_ids: [live] });
  });

  it('lists with meta, updates only the fields given, and deletes', async () => {
    const created = (
      await t.request('POST', '/v1/qc/subscriptions', { token, body: { url: URL_A, event: 'booking.no_show' } })
    ).body.data;
    const list = await t.request('GET', '/v1/qc/subscriptions', { token, query: { per_page: 2, page: 1 } });
    expect(list.status).toBe(200);
    expect(list.body.data.subscriptions).toHaveLength(2);
    expect(list.body.data.meta).toMatchObject({ page: 1, per_page: 2 });
    const total = list.body.data.meta.total;
    expect(list.body.data.meta.last_page).toBe(Math.ceil(total / 2));
    for (const s of list.body.data.subscriptions) expect(s.secret).toBeUndefined();

    const patched = await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, {
      token,
      body: { event_types: ['booking.no_show', 'inventory.push.completed'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      url: URL_A,
      event_types: ['booking.no_show', 'inventory.push.completed'],
      all_properties: true,
    });
    const moved = await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, { token, body: { url: URL_B } });
    expect(moved.body.data).toMatchObject({ url: URL_B, event_types: ['booking.no_show', 'inventory.push.completed'] });

    const deleted = await t.request('DELETE', `/v1/qc/subscriptions/${created.id}`, { token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: created.id, deleted: true });
    expect((await t.request('GET', `/v1/qc/subscriptions/${created.id}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/qc/subscriptions/${created.id}`, { token })).status).toBe(404);
    const after = await t.request('GET', '/v1/qc/subscriptions', { token });
    expect(after.body.data.meta.total).toBe(total - 1);
  });

  it('a PATCH that changes nothing answers the subscription as it is: updated_at kept, no subscription.updated', async () => {
    const created = (
      await t.request('POST', '/v1/qc/subscriptions', { token, body: { url: URL_A, event: 'booking.confirmed' } })
    ).body.data;
    t.clock.advance(60_000);
    const empty = await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, { token, body: {} });
    const unknownOnly = await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, { token, body: { x: 1 } });
    const same = await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, {
      token,
      body: { url: URL_A, event_types: ['booking.confirmed'] },
    });
    for (const res of [empty, unknownOnly, same]) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'secret')));
    }
    expect(unknownOnly.body.warnings).toEqual([{ field: 'x', key: 'errors.qc.unknown_field' }]);
    const events = await t.deps.db.sql<{ type: string }>`
      select type from outbox_events
      where customer_id = ${demo.customer_id} and data->>'subscription_id' = ${created.id} order by id`;
    expect(events.map((e) => e.type)).toEqual(['subscription.created']);
  });

  it('enable, rotate-secret and delete take no body: each field sent is named in warnings', async () => {
    const created = (
      await t.request('POST', '/v1/qc/subscriptions', { token, body: { url: URL_A, event: 'booking.created' } })
    ).body.data;
    const unknown = [{ field: 'x', key: 'errors.qc.unknown_field' }];
    const path = `/v1/qc/subscriptions/${created.id}`;
    const enabled = await t.request('POST', `${path}/enable`, { token, body: { x: 1 } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.warnings).toEqual(unknown);
    const rotated = await t.request('POST', `${path}/rotate-secret`, { token, body: { x: 1 } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.warnings).toEqual(unknown);
    const plain = await t.request('POST', `${path}/enable`, { token });
    expect('warnings' in plain.body).toBe(false);
    const deleted = await t.request('DELETE', path, { token, body: { x: 1 } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.warnings).toEqual(unknown);
  });

  it('records subscription events in the outbox with the change', async () => {
    const created = (
      await t.request('POST', '/v1/qc/subscriptions', { token, body: { url: URL_A, event: 'booking.assigned' } })
    ).body.data;
    await t.request('PATCH', `/v1/qc/subscriptions/${created.id}`, { token, body: { url: URL_B } });
    await t.request('POST', `/v1/qc/subscriptions/${created.id}/rotate-secret`, { token });
    await t.request('DELETE', `/v1/qc/subscriptions/${created.id}`, { token });
    const events = await t.deps.db.sql<{ type: string; data: { subscription_id: string }; property_id: number | null }>`
      select type, data, property_id from outbox_events
      where customer_id = ${demo.customer_id} and data->>'subscription_id' = ${created.id} order by id`;
    expect(events.map((e) => e.type)).toEqual([
      'subscription.created',
      'subscription.updated',
      'subscription.secret_rotated',
      'subscription.deleted',
    ]);
    for (const e of events) expect(e.property_id).toBeNull();
  });
});
