import { describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { perFile, startTestApp, testAppPerFile } from '../testing/harness.ts';
import {
  commitBookingEvent,
  deliveryRows,
  selfSignedCertificate,
  startReceiver,
  subscribe,
  subscriberDemoPerFile,
} from '../webhooks/test-support.ts';

const URL_A = 'https://pms.example.com/hooks/qc';
const rule = (name: string) => [`customer.subscription.messages.${name}`];

describe('subscription access', () => {
  const t = testAppPerFile();
  const demo = subscriberDemoPerFile(t);
  const other = perFile(() => t.demo());

  it('hides a subscription from other customers on every route', async () => {
    const sub = await subscribe(t, demo.personal_token, { url: URL_A, event: 'booking.created' });
    const token = other.personal_token;
    for (const [method, path] of [
      ['GET', `/v1/qc/subscriptions/${sub.id}`],
      ['PATCH', `/v1/qc/subscriptions/${sub.id}`],
      ['DELETE', `/v1/qc/subscriptions/${sub.id}`],
      ['POST', `/v1/qc/subscriptions/${sub.id}/rotate-secret`],
      ['POST', `/v1/qc/subscriptions/${sub.id}/enable`],
    ] as const) {
      const res = await t.request(method, path, {
        token,
        body: method === 'PATCH' ? { url: 'https://evil.example/x' } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    }
    const list = await t.request('GET', '/v1/qc/subscriptions', { token });
    expect(list.body.data.subscriptions.map((s: { id: string }) => s.id)).not.toContain(sub.id);
    const health = await t.request('GET', '/v1/qc/health/webhooks', { token });
    expect(health.body.data.subscriptions.map((s: { id: string }) => s.id)).not.toContain(sub.id);
    const still = await t.request('GET', `/v1/qc/subscriptions/${sub.id}`, { token: demo.personal_token });
    expect(still.body.data.url).toBe(URL_A);
  });

  it('keeps a narrower credential of the same customer to the properties it may act on', async () => {
    const [live, shadow] = demo.properties;
    const liveSub = await subscribe(t, demo.personal_token, {
      url: URL_A,
      event: 'booking.created',
      property_ids: [live?.external_property_id],
    });
    const accountWide = await subscribe(t, demo.personal_token, { url: URL_A, event: 'booking.created' });
    const shadowSub = await subscribe(t, demo.personal_token, {
      url: URL_A,
      event: 'booking.created',
      property_ids: [shadow?.external_property_id],
    });
    const narrow = await t.client({
      customer_id: demo.customer_id,
      scopes: ['subscriptions.manage', 'bookings.read'],
      property_ids: [shadow?.external_property_id ?? ''],
    });
    for (const id of [liveSub.id, accountWide.id]) {
      expect((await t.request('GET', `/v1/qc/subscriptions/${id}`, { token: narrow.token })).status).toBe(404);
      // Redirecting someone else's subscription to itself would leak the other property's events.
      expect(
        (
          await t.request('PATCH', `/v1/qc/subscriptions/${id}`, {
            token: narrow.token,
            body: { url: 'https://evil.example/x' },
          })
        ).status,
      ).toBe(404);
    }
    expect((await t.request('GET', `/v1/qc/subscriptions/${shadowSub.id}`, { token: narrow.token })).status).toBe(200);
    const own = await subscribe(t, narrow.token, { url: URL_A, event: 'booking.created' });
    const listed = await t.request('GET', '/v1/qc/subscriptions', { token: narrow.token });
    expect(listed.body.data.subscriptions.map((s: { id: string }) => s.id).sort()).toEqual(
      [shadowSub.id, own.id].sort(),
    );
  });
});

describe('destination checks with private addresses refused (QC_WEBHOOK_ALLOW_PRIVATE=0)', () => {
  const t = testAppPerFile({ env: { QC_WEBHOOK_ALLOW_PRIVATE: '0' } });
  const demo = subscriberDemoPerFile(t);

  const create = (url: string) =>
    t.request('POST', '/v1/qc/subscriptions', { token: demo.personal_token, body: { url, event: 'booking.created' } });

  it('refuses loopback, private, link-local, unique-local, CGNAT and multicast destinations', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost:8443/hook',
      'https://2130706433/hook', // 127.0.0.1 in decimal
      'https://0x7f.1/hook',
      'https://10.1.2.3/hook',
      'https://172.20.0.5/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.7/hook',
      'https://224.0.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[fd12:3456::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:a9fe:a9fe]/hook',
    ]) {
      const res = await create(url);
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({
        url,
        status: 422,
        errors: { url: rule('private_address') },
      });
    }
  });

  it('requires https and a resolvable host; accepts a public address', async () => {
    expect((await create('http://93.184.216.34/hook')).body.errors).toEqual({ url: rule('https_required') });
    expect((await create('https://no-such-host.invalid/hook')).body.errors).toEqual({ url: rule('unresolvable_host') });
    const ok = await create('https://93.184.216.34/hook');
    expect(ok.status).toBe(201);
  });

  it('checks again at every attempt: a destination that became private is not called', async () => {
    // Created where private destinations are allowed; delivered by a process where they are not (as when
    // the host's DNS record changed to an internal address after the subscription was accepted).
    const receiver = startReceiver(undefined, { tls: selfSignedCertificate() });
    const clock = new ManualClock(new Date('2026-01-05T00:00:00Z'));
    // Only the strict process relays and delivers: a permissive one relaying the same event could hold it
    // uncommitted while the strict one looks, which then found nothing to attempt.
    const permissive = await startTestApp({ webhooks: { autorun: false } });
    const strict = await startTestApp({ clock, env: { QC_WEBHOOK_ALLOW_PRIVATE: '0' }, webhooks: { autorun: false } });
    try {
      const sub = await subscribe(permissive, demo.personal_token, { url: receiver.url, event: 'booking.created' });
      await commitBookingEvent(strict, demo, 'booking.created', 1);
      await strict.webhooks?.runDue();
      expect(receiver.received).toHaveLength(0);
      const [row] = await deliveryRows(strict.deps, sub.id);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'destination_refused: private_address' });
    } finally {
      await strict.close();
      await permissive.close();
      await receiver.stop();
    }
  });
});
