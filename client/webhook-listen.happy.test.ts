import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../server/demo/demo.ts';
import { startServedTestApp, type TestApp } from '../server/testing/harness.ts';
import { signPayload } from '../server/webhooks/signature.ts';
import { commitEvent, propertyPk, WallClock } from '../server/webhooks/test-support.ts';
import { listenForWebhooks } from './webhook-listen.ts';

let t: TestApp;
let demo: Demo;
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ t, baseUrl, stop } = await startServedTestApp({ clock: new WallClock(), webhooks: { pollMs: 50 } }));
  demo = await t.demo();
});
afterAll(() => stop());

describe('npm run webhook:listen', () => {
  it('subscribes itself with a token, verifies and prints a real delivery, and unsubscribes on stop', async () => {
    const lines: string[] = [];
    const listener = await listenForWebhooks({
      baseUrl,
      token: demo.personal_token,
      port: 0,
      print: (l) => lines.push(l),
    });
    try {
      const live = demo.properties[0]!.external_property_id;
      await commitEvent(t.deps, {
        type: 'booking.created',
        customerId: demo.customer_id,
        propertyId: await propertyPk(t.deps, live),
        data: { booking_id: 'b-1' },
      });
      const booked = () => listener.deliveries.find((d) => d.type === 'booking.created');
      for (let i = 0; i < 200 && !booked(); i++) await Bun.sleep(25);
      expect(booked()).toEqual({ ok: true, type: 'booking.created', deliveryId: expect.any(String) });
      // Subscribed to every event type: its own subscription.created arrives too, verified like the rest.
      expect(listener.deliveries.every((d) => d.ok)).toBe(true);
      expect(lines.some((l) => l.startsWith('✓ ') && l.includes('booking.created'))).toBe(true);
    } finally {
      await listener.stop();
    }
    const gone = await t.request('GET', `/v1/qc/subscriptions/${listener.subscriptionId}`, {
      token: demo.personal_token,
    });
    expect(gone.status).toBe(404);
  });

  it('with --secret, refuses a delivery signed with another key and answers a duplicate 2xx', async () => {
    const secret = 'whsec_local-test-secret';
    const listener = await listenForWebhooks({ baseUrl, secret, port: 0, print: () => {} });
    try {
      const body = JSON.stringify({
        id: 'e1',
        type: 'booking.created',
        created_at: new Date().toISOString(),
        data: {},
      });
      const send = async (key: string, delivery: string) => {
        const timestamp = Math.floor(Date.now() / 1000);
        return fetch(listener.url, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            'x-qc-timestamp': String(timestamp),
            'x-qc-signature-256': await signPayload(key, timestamp, body),
            'x-qc-delivery': delivery,
            'x-qc-subscription': 'sub-1',
            'x-qc-event': 'booking.created',
          },
        });
      };
      // The key is the whole whsec_ string: signing with the part after the prefix is a forgery.
      expect((await send(secret.slice('whsec_'.length), 'd1')).status).toBe(400);
      expect((await send(secret, 'd2')).status).toBe(204);
      expect((await send(secret, 'd2')).status).toBe(200);
      expect(listener.deliveries.map((d) => d.reason ?? 'verified')).toEqual([
        'bad_signature',
        'verified',
        'duplicate',
      ]);
    } finally {
      await listener.stop();
    }
  });
});
