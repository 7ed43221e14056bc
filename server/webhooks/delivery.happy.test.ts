import { afterEach, describe, expect, it } from 'bun:test';
import { createHmac } from 'node:crypto';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { LADDER_SECONDS } from './ladder.ts';
import { memorySeenStore, verifyWebhook } from './receiver.ts';
import { USER_AGENT } from './send.ts';
import {
  bookingData,
  commitBookingEvent,
  commitEvent,
  deliveryRows,
  propertyPk,
  startReceiver,
  subscribe,
  type TestReceiver,
  WallClock,
} from './test-support.ts';

/**
 * Real time, a real local receiver, once with BullMQ on Redis and once with the in-process queue: the
 * same persisted rows and the same behaviour either way.
 */
const queues = [
  { name: 'BullMQ', env: {} as Record<string, string>, kind: 'bullmq' },
  { name: 'in-process queue', env: { REDIS_URL: '' }, kind: 'in-process' },
] as const;

for (const queue of queues) {
  // The BullMQ variant needs REDIS_URL (set by `npm test`).
  describe.skipIf(queue.kind === 'bullmq' && !process.env.REDIS_URL)(`webhook delivery (${queue.name})`, () => {
    let t: TestApp;
    let receiver: TestReceiver;
    let demo: Demo;

    async function setup(options: { delayScale?: number } = {}) {
      t = await startTestApp({
        clock: new WallClock(),
        env: queue.env,
        webhooks: { pollMs: 50, delayScale: options.delayScale ?? 1 },
      });
      receiver = startReceiver();
      demo = await t.demo();
    }

    afterEach(async () => {
      await t?.close();
      await receiver?.stop();
    });

    it('posts a signed event that the receiver helper verifies, with the headers of spec 6.1', async () => {
      await setup();
      expect(t.webhooks?.queue).toBe(queue.kind);
      const live = demo.properties[0];
      if (!live) throw new Error('demo has no property');
      const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
      const event = await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: demo.customer_id,
        propertyId: await propertyPk(t.deps, live.external_property_id),
        data: bookingData(7),
      });

      const [request] = await receiver.waitFor(1);
      if (!request) throw new Error('no request');
      const verified = await verifyWebhook(request.headers, request.body, {
        secrets: [sub.secret],
        subscriptionIds: [sub.id],
        seen: memorySeenStore(),
      });
      expect(verified.ok).toBe(true);
      // What the README and the subscription docs tell partners: the HMAC key is the literal secret string,
      // `whsec_` prefix included (not stripped, not base64-decoded), so any HMAC library verifies it.
      expect(sub.secret).toStartWith('whsec_');
      const timestamp = request.headers.get('x-qc-timestamp');
      const hmac = createHmac('sha256', sub.secret).update(`${timestamp}.${request.body}`).digest('hex');
      expect(request.headers.get('x-qc-signature-256')).toBe(`sha256=${hmac}`);
      expect(request.headers.get('user-agent')).toBe(USER_AGENT);
      expect(request.headers.get('user-agent')).toEndWith('-Webhooks/1');
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(request.headers.get('x-qc-subscription')).toBe(sub.id);
      expect(request.headers.get('x-qc-event')).toBe('booking.created');
      expect(request.headers.get('x-qc-attempt')).toBe('1');
      expect(Math.abs(Number(request.headers.get('x-qc-timestamp')) - Date.now() / 1000)).toBeLessThan(10);
      expect(JSON.parse(request.body)).toEqual({
        id: event.event_id,
        type: 'booking.created',
        created_at: expect.any(String),
        property_id: live.external_property_id,
        data: bookingData(7),
      });

      const [row] = await deliveryRows(t.deps, sub.id);
      expect(request.headers.get('x-qc-delivery')).toBe(row?.external_id ?? 'missing');
      await waitUntil(async () => (await deliveryRows(t.deps, sub.id))[0]?.status === 'delivered');
      // A tampered body no longer verifies.
      const tampered = await verifyWebhook(request.headers, request.body.replace('QDO', 'QDX'), {
        secrets: [sub.secret],
      });
      expect(tampered).toEqual({ ok: false, reason: 'bad_signature' });
    });

    it('delivers only what matches: event type, alias name, property filter, other customers', async () => {
      await setup();
      const [live, shadow] = demo.properties;
      if (!live || !shadow) throw new Error('demo has no properties');
      const other = await t.demo();
      await subscribe(t, demo.personal_token, {
        url: receiver.url,
        event_types: ['booking.arrived', 'booking.cancelled'],
        property_ids: [live.partner_code],
      });
      const livePk = await propertyPk(t.deps, live.external_property_id);
      await commitEvent(t.deps, {
        type: 'booking.modified',
        customerId: demo.customer_id,
        propertyId: livePk,
        data: bookingData(1),
      });
      await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: demo.customer_id,
        propertyId: await propertyPk(t.deps, shadow.external_property_id),
        data: bookingData(2),
      });
      await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: other.customer_id,
        propertyId: await propertyPk(t.deps, other.properties[0]?.external_property_id ?? ''),
        data: bookingData(3),
      });
      await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: demo.customer_id,
        propertyId: livePk,
        data: bookingData(4),
      });
      await commitEvent(t.deps, {
        type: 'booking.cancelled',
        customerId: demo.customer_id,
        propertyId: livePk,
        data: bookingData(5),
      });

      const got = await receiver.waitFor(2);
      await Bun.sleep(300);
      expect(receiver.received).toHaveLength(2);
      // booking.created reaches a booking.arrived subscriber once, under the name it subscribed to.
      expect(got.map((r) => [r.headers.get('x-qc-event'), JSON.parse(r.body).data.revision_id]).sort()).toEqual([
        ['booking.arrived', 4],
        ['booking.cancelled', 5],
      ]);
      expect(got.map((r) => JSON.parse(r.body).type).sort()).toEqual(['booking.arrived', 'booking.cancelled']);
    });

    it('retries a failing receiver at the ladder delays (scaled) and keeps the delivery id', async () => {
      const scale = 0.02; // 5 s, 10 s, 30 s -> 100 ms, 200 ms, 600 ms
      await setup({ delayScale: scale });
      const failures = 3;
      receiver.respond = (_, i) => new Response('nope', { status: i < failures ? 503 : 204 });
      const sub = await subscribe(t, demo.personal_token, { url: receiver.url, event: 'booking.no_show' });
      await commitBookingEvent(t, demo, 'booking.no_show', 9);

      const got = await receiver.waitFor(failures + 1, 15_000);
      expect(got.map((r) => r.headers.get('x-qc-attempt'))).toEqual(['1', '2', '3', '4']);
      expect(new Set(got.map((r) => r.headers.get('x-qc-delivery'))).size).toBe(1);
      for (let i = 1; i <= failures; i++) {
        const gap = (got[i]?.at ?? 0) - (got[i - 1]?.at ?? 0);
        const expected = (LADDER_SECONDS[i - 1] ?? 0) * 1000 * scale;
        expect(gap).toBeGreaterThanOrEqual(expected - 5);
        expect(gap).toBeLessThan(expected + 400);
      }
      await waitUntil(async () => (await deliveryRows(t.deps, sub.id))[0]?.status === 'delivered');
      const [row] = await deliveryRows(t.deps, sub.id);
      expect(row?.attempts).toBe(failures + 1);
      await Bun.sleep(300);
      expect(receiver.received).toHaveLength(failures + 1);
    });
  });
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await Bun.sleep(25);
  }
}

describe('relay wake-up on commit (LISTEN/NOTIFY, PostgreSQL and embedded)', () => {
  it('delivers long before the next poll', async () => {
    const t = await startTestApp({ clock: new WallClock(), env: { REDIS_URL: '' }, webhooks: { pollMs: 60_000 } });
    const receiver = startReceiver();
    try {
      const demo = await t.demo();
      await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.created'] });
      const committed = Date.now();
      await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: demo.customer_id,
        propertyId: await propertyPk(t.deps, demo.properties[0]?.external_property_id ?? ''),
        data: bookingData(1),
      });
      const [request] = await receiver.waitFor(1, 5000);
      expect((request?.at ?? Infinity) - committed).toBeLessThan(2000);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});
