import { afterAll, describe, expect, it } from 'bun:test';
import {
  commitBookingEvent,
  deliveryRows,
  selfSignedCertificate,
  startReceiver,
  steppedWebhookTest,
  subscribe,
  type TestReceiver,
} from './test-support.ts';

/** What counts as a failure besides a 5xx: TLS, refused connections, redirects, 4xx. */
describe('delivery failures', () => {
  const { t, demo } = steppedWebhookTest(new Date('2026-01-07T00:00:00Z'));
  // Each test starts the receivers it needs; all are stopped with the file.
  const receivers: TestReceiver[] = [];
  afterAll(async () => {
    for (const r of receivers) await r.stop();
  });

  const receiver = (...args: Parameters<typeof startReceiver>) => {
    const r = startReceiver(...args);
    receivers.push(r);
    return r;
  };

  async function deliverOnce(url: string, n: number) {
    const sub = await subscribe(t, demo.personal_token, { url, event_types: ['booking.modified'] });
    await commitBookingEvent(t, demo, 'booking.modified', n);
    await t.webhooks?.runDue();
    const [row] = await deliveryRows(t.deps, sub.id);
    await t.request('DELETE', `/v1/qc/subscriptions/${sub.id}`, { token: demo.personal_token });
    return row;
  }

  it('fails on a certificate the sender cannot verify, without reaching the handler', async () => {
    const secure = receiver(undefined, { tls: selfSignedCertificate() });
    const row = await deliverOnce(secure.url, 1);
    expect(row?.status).toBe('failed');
    expect(row?.last_error).toMatch(/^tls_error: /);
    expect(secure.received).toHaveLength(0);
  });

  it('fails on a refused connection', async () => {
    const gone = receiver();
    const url = gone.url;
    await gone.stop();
    const row = await deliverOnce(url, 2);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.last_error).toMatch(/^connection_error: /);
  });

  it('fails on a redirect and does not follow it', async () => {
    const target = receiver();
    const redirecting = receiver(() => new Response(null, { status: 302, headers: { location: target.url } }));
    const row = await deliverOnce(redirecting.url, 3);
    expect(row).toMatchObject({ status: 'failed', last_error: 'http_302' });
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('fails on a 4xx and records the status', async () => {
    const refusing = receiver(() => new Response('who are you', { status: 401 }));
    const row = await deliverOnce(refusing.url, 4);
    expect(row).toMatchObject({ status: 'failed', last_error: 'http_401' });
    const [attempt] = await t.deps.db.sql<{ response_status: number; success: boolean }>`
      select response_status, success from delivery_attempts where delivery_id = ${row?.id ?? 0}`;
    expect(attempt).toEqual({ response_status: 401, success: false });
  });

  it('counts any 2xx as success', async () => {
    for (const [i, status] of [200, 201, 202, 204, 299].entries()) {
      const ok = receiver(() => new Response(null, { status }));
      const row = await deliverOnce(ok.url, 10 + i);
      expect({ status, result: row?.status }).toEqual({ status, result: 'delivered' });
    }
  });
});
