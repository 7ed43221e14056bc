import { describe, expect, it } from 'bun:test';
import {
  commitBookingEvent,
  deliveryRows,
  retireSubscriptions,
  steppedWebhookTest,
  subscribe,
} from './test-support.ts';

/** GET /health/webhooks, the delivery log and redelivery. */
describe('delivery health, log and redelivery', () => {
  const start = new Date('2026-01-15T08:00:00Z');
  const kit = steppedWebhookTest(start);
  const { clock, t, demo } = kit;
  const healthy = kit.receiver();
  const broken = kit.receiver(() => new Response('', { status: 500 }));
  const down = kit.receiver(() => new Response('', { status: 503 }));
  let n = 0;

  const token = () => demo.personal_token;
  const emit = (type = 'booking.created') => commitBookingEvent(t, demo, type, ++n);

  it('reports per subscription the success rate, the last attempt and the next retry, and a filtered log', async () => {
    const good = await subscribe(t, token(), { url: healthy.url, event: 'booking.created' });
    const bad = await subscribe(t, token(), { url: broken.url, event: 'booking.created' });
    await emit();
    await emit();
    await t.webhooks?.runDue();

    const res = await t.request('GET', '/v1/qc/health/webhooks', { token: token() });
    expect(res.status).toBe(200);
    const byId = (id: string) => res.body.data.subscriptions.find((s: { id: string }) => s.id === id);
    expect(byId(good.id)).toMatchObject({
      url: healthy.url,
      status: 'active',
      success_rate: 1,
      attempts_24h: 2,
      successes_24h: 2,
      last_attempt_at: start.toISOString(),
      last_attempt: { at: start.toISOString(), success: true, response_status: 200, error: null },
      next_retry_at: null,
      outstanding_deliveries: 0,
      failing_since: null,
    });
    expect(byId(bad.id)).toMatchObject({
      success_rate: 0,
      attempts_24h: 2,
      last_attempt: { success: false, response_status: 500, error: 'http_500' },
      next_retry_at: new Date(start.getTime() + 5000).toISOString(),
      outstanding_deliveries: 2,
      failing_since: start.toISOString(),
    });

    const failed = await t.request('GET', '/v1/qc/health/webhooks', { token: token(), query: { status: 'failed' } });
    expect(failed.body.data.deliveries).toHaveLength(2);
    for (const d of failed.body.data.deliveries) {
      expect(d).toMatchObject({
        subscription_id: bad.id,
        status: 'failed',
        attempts: 1,
        last_response_status: 500,
        event_type: 'booking.created',
      });
      expect(d.next_attempt_at).toBe(new Date(start.getTime() + 5000).toISOString());
      expect(d.payload).toMatchObject({
        type: 'booking.created',
        property_id: demo.properties[0]?.external_property_id,
      });
    }
    const delivered = await t.request('GET', '/v1/qc/deliveries', {
      token: token(),
      query: { status: 'delivered', per_page: 1 },
    });
    expect(delivered.body.data.deliveries).toHaveLength(1);
    expect(delivered.body.data.deliveries[0]).toMatchObject({
      subscription_id: good.id,
      status: 'delivered',
      next_attempt_at: null,
    });
    expect(delivered.body.data.meta).toEqual({ total: 2, page: 1, per_page: 1, last_page: 2 });
    const ofBad = await t.request('GET', '/v1/qc/deliveries', { token: token(), query: { subscription_id: bad.id } });
    expect(ofBad.body.data.deliveries.map((d: { subscription_id: string }) => d.subscription_id)).toEqual([
      bad.id,
      bad.id,
    ]);

    // One success among the next attempts: half of the last 24 hours' attempts succeeded.
    broken.respond = () => new Response('');
    clock.advance(5000);
    await t.webhooks?.runDue();
    const after = await t.request('GET', '/v1/qc/health/webhooks', { token: token() });
    expect(after.body.data.subscriptions.find((s: { id: string }) => s.id === bad.id)).toMatchObject({
      success_rate: 0.5,
      attempts_24h: 4,
      next_retry_at: null,
      outstanding_deliveries: 0,
      failing_since: null,
    });

    // Outside the 24-hour window the rate has no attempts to go on.
    clock.advance(25 * 3600_000);
    const later = await t.request('GET', '/v1/qc/health/webhooks', { token: token() });
    expect(later.body.data.subscriptions.find((s: { id: string }) => s.id === bad.id)).toMatchObject({
      success_rate: null,
      attempts_24h: 0,
    });
    await t.request('DELETE', `/v1/qc/subscriptions/${good.id}`, { token: token() });
    await t.request('DELETE', `/v1/qc/subscriptions/${bad.id}`, { token: token() });
  });

  it('never shows a next retry in the past: a delivery past its time waits to be sent now', async () => {
    clock.set(start);
    const sub = await subscribe(t, token(), { url: down.url, event: 'booking.created' });
    await emit();
    await t.webhooks?.runDue();
    const health = async () =>
      (await t.request('GET', '/v1/qc/health/webhooks', { token: token() })).body.data.subscriptions.find(
        (s: { id: string }) => s.id === sub.id,
      );
    expect((await health()).next_retry_at).toBe(new Date(start.getTime() + 5000).toISOString());

    // Its retry was due 4 minutes ago and nothing was sent (no worker ran, as while a delivery process pauses an
    // unreachable receiver): the retry is now, not 4 minutes ago.
    clock.advance(5000 + 4 * 60_000);
    const [row] = await deliveryRows(t.deps, sub.id);
    expect(row?.next_attempt_at).toEqual(new Date(start.getTime() + 5000));
    expect(await health()).toMatchObject({ next_retry_at: clock.now().toISOString(), outstanding_deliveries: 1 });
    await t.request('DELETE', `/v1/qc/subscriptions/${sub.id}`, { token: token() });
  });

  it('redelivers any delivery of the last 90 days as a new delivery of the same event', async () => {
    clock.set(start);
    healthy.received.length = 0;
    const sub = await subscribe(t, token(), { url: healthy.url, event: 'booking.cancelled' });
    const event = await emit('booking.cancelled');
    await t.webhooks?.runDue();
    const [original] = (
      await t.request('GET', '/v1/qc/deliveries', { token: token(), query: { subscription_id: sub.id } })
    ).body.data.deliveries;
    expect(original.status).toBe('delivered');

    clock.advance(89 * 24 * 3600_000);
    const res = await t.request('POST', `/v1/qc/deliveries/${original.id}/redeliver`, { token: token() });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('accepted');
    expect(res.body.data).toMatchObject({
      status: 'pending',
      attempts: 0,
      redelivery_of: original.id,
      event_id: event.event_id,
      subscription_id: sub.id,
    });
    expect(res.body.data.id).not.toBe(original.id);
    await t.webhooks?.runDue();
    const [first, second] = healthy.received;
    expect(second?.body).toBe(first?.body); // the same event, byte for byte
    expect(second?.headers.get('x-qc-delivery')).toBe(res.body.data.id);
    expect(second?.headers.get('x-qc-attempt')).toBe('1');

    clock.advance(2 * 24 * 3600_000);
    const tooOld = await t.request('POST', `/v1/qc/deliveries/${original.id}/redeliver`, { token: token() });
    expect(tooOld.status).toBe(422);
    expect(tooOld.body.message).toBe('errors.qc.deliveries.redelivery_window_passed');

    const unknown = await t.request('POST', '/v1/qc/deliveries/00000000-0000-4000-8000-000000000000/redeliver', {
      token: token(),
    });
    expect(unknown.status).toBe(404);
    const other = await t.demo();
    const foreign = await t.request('POST', `/v1/qc/deliveries/${res.body.data.id}/redeliver`, {
      token: other.personal_token,
    });
    expect(foreign.status).toBe(404);
    await retireSubscriptions(t.deps, other.customer_id);
  });

  it('refuses to redeliver to a disabled subscription until it is enabled', async () => {
    clock.set(start);
    const sub = await subscribe(t, token(), { url: healthy.url, event: 'booking.no_show' });
    await emit('booking.no_show');
    await t.webhooks?.runDue();
    const [delivery] = (
      await t.request('GET', '/v1/qc/deliveries', { token: token(), query: { subscription_id: sub.id } })
    ).body.data.deliveries;
    await t.deps.db
      .sql`update subscriptions set status = 'disabled', disabled_reason = 'failing' where external_id = ${sub.id}`;
    const refused = await t.request('POST', `/v1/qc/deliveries/${delivery.id}/redeliver`, { token: token() });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('errors.qc.subscription.disabled');
    await t.request('POST', `/v1/qc/subscriptions/${sub.id}/enable`, { token: token() });
    expect((await t.request('POST', `/v1/qc/deliveries/${delivery.id}/redeliver`, { token: token() })).status).toBe(
      202,
    );
  });

  it('redeliver takes no body: a field sent is named in warnings beside data', async () => {
    clock.set(start);
    const sub = await subscribe(t, token(), { url: healthy.url, event: 'booking.modified' });
    await emit('booking.modified');
    await t.webhooks?.runDue();
    const [delivery] = (
      await t.request('GET', '/v1/qc/deliveries', { token: token(), query: { subscription_id: sub.id } })
    ).body.data.deliveries;
    const res = await t.request('POST', `/v1/qc/deliveries/${delivery.id}/redeliver`, {
      token: token(),
      body: { x: 1 },
    });
    expect(res.status).toBe(202);
    expect(res.body.warnings).toEqual([{ field: 'x', key: 'errors.qc.unknown_field' }]);
  });
});
