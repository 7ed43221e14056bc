import { describe, expect, it } from 'bun:test';
import { verifyWebhook } from './receiver.ts';
import {
  commitBookingEvent,
  type Received,
  retireSubscriptions,
  steppedWebhookTest,
  subscribe,
} from './test-support.ts';

describe('signing secret rotation', () => {
  const start = new Date('2026-02-01T00:00:00Z');
  const kit = steppedWebhookTest(start);
  const { clock, t, demo } = kit;
  const receiver = kit.receiver(() => new Response('', { status: 503 }));

  // The receiver helper's clock follows the ManualClock, like a partner whose clock is in sync.
  const verify = (r: Received | undefined, secrets: string[]) => {
    if (!r) throw new Error('no request');
    return verifyWebhook(r.headers, r.body, { secrets, now: () => clock.now().getTime() });
  };

  it('signs older deliveries with the old secret for 24 hours and new ones with the new secret', async () => {
    const created = await subscribe(t, demo.personal_token, { url: receiver.url, event_types: ['booking.cancelled'] });
    const oldSecret = created.secret;
    const emit = (n: number) => commitBookingEvent(t, demo, 'booking.cancelled', n);

    await emit(1);
    await t.webhooks?.runDue();
    expect((await verify(receiver.received[0], [oldSecret])).ok).toBe(true);

    clock.advance(1000);
    const rotated = await t.request('POST', `/v1/qc/subscriptions/${created.id}/rotate-secret`, {
      token: demo.personal_token,
    });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.data.previous_secret_expires_at).toBe(
      new Date(start.getTime() + 1000 + 24 * 3600_000).toISOString(),
    );
    expect(rotated.body.data.secret_rotated_at).toBe(clock.now().toISOString());

    // Secrets are shown once: reads never carry them.
    const show = await t.request('GET', `/v1/qc/subscriptions/${created.id}`, { token: demo.personal_token });
    const list = await t.request('GET', '/v1/qc/subscriptions', { token: demo.personal_token });
    for (const text of [show.text, list.text]) {
      expect(text).not.toContain(oldSecret);
      expect(text).not.toContain(newSecret);
    }
    expect(show.body.data.secret).toBeUndefined();

    // A delivery made after the rotation: the new secret only.
    await emit(2);
    await t.webhooks?.runDue();
    const fresh = receiver.received[1];
    expect(JSON.parse(fresh?.body ?? '{}').data.revision_id).toBe(2);
    expect((await verify(fresh, [newSecret])).ok).toBe(true);
    expect(await verify(fresh, [oldSecret])).toEqual({ ok: false, reason: 'bad_signature' });

    // The retry of the delivery made before the rotation: still the old secret.
    clock.advance(4000);
    await t.webhooks?.runDue();
    const retry = receiver.received[2];
    expect(retry?.headers.get('x-qc-attempt')).toBe('2');
    expect(JSON.parse(retry?.body ?? '{}').data.revision_id).toBe(1);
    expect(await verify(retry, [newSecret])).toEqual({ ok: false, reason: 'bad_signature' });
    expect(await verify(retry, [newSecret, oldSecret])).toMatchObject({ ok: true, secretIndex: 1 });

    // 24 hours after the rotation the old secret is gone: every attempt is signed with the new one.
    clock.set(new Date(start.getTime() + 1000 + 24 * 3600_000 + 1));
    const seen = receiver.received.length;
    await t.webhooks?.runDue();
    const late = receiver.received.slice(seen);
    expect(late.map((r) => JSON.parse(r.body).data.revision_id).sort()).toEqual([1, 2]);
    for (const r of late) expect(await verify(r, [newSecret])).toMatchObject({ ok: true, secretIndex: 0 });
  });

  it('answers 404 for a subscription of another customer', async () => {
    const created = await subscribe(t, demo.personal_token, { url: receiver.url, event: 'booking.created' });
    const other = await t.demo();
    const res = await t.request('POST', `/v1/qc/subscriptions/${created.id}/rotate-secret`, {
      token: other.personal_token,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('errors.not_found');
    await retireSubscriptions(t.deps, other.customer_id);
  });
});
