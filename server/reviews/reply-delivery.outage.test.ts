import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { startReceiver, type TestReceiver } from '../webhooks/test-support.ts';
import { deliverDueReplies } from './reply-delivery.ts';
import { givenReview } from './test-fixtures.ts';

/**
 * A channel gateway that hangs on some replies (one OTA connection stuck) while it answers the others at once.
 * Replies used to be sent one after another with a 10-second timeout each, so one hung reply held back every
 * customer's, and a batch of 20 could outlast its 60-second lease: its replies were then claimed again and sent twice.
 */
let t: TestApp;
let demo: Demo;
let gateway: TestReceiver;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});
const clock = new ManualClock(new Date('2026-06-21T09:00:00Z'));

beforeAll(async () => {
  gateway = startReceiver(async (request) => {
    if (JSON.parse(request.body).channel_review_id.startsWith('HANG-')) await held;
    return new Response('ok');
  });
  t = await startTestApp({ clock, env: { QC_CHANNEL_GATEWAY_URL: gateway.url } });
  demo = await t.demo();
});
afterAll(async () => {
  release();
  await t.close();
  await gateway.stop();
});

const path = (id: string) => `/v1/qc/properties/${demo.properties[0]?.id}/reviews/${id}`;

async function repliedReview(channelReviewId: string): Promise<string> {
  const id = await givenReview(t, demo, 'BDC', { channel_review_id: channelReviewId });
  const res = await t.request('POST', `${path(id)}/reply`, { token: demo.personal_token, body: { text: 'Thanks!' } });
  expect(res.status).toBe(201);
  return id;
}

const deliveryOf = async (id: string) =>
  (await t.request('GET', path(id), { token: demo.personal_token })).body.data.reply.delivery;

describe('reply delivery through a gateway that hangs on some replies', () => {
  it('sends the other replies while one hangs, and sends none twice', async () => {
    // The hung reply is due first, so it is the first of the batch.
    const hung = await repliedReview(`HANG-${crypto.randomUUID()}`);
    clock.advance(1000);
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await repliedReview(`OK-${crypto.randomUUID()}`));

    const batch = deliverDueReplies(t.deps);
    // Well inside the 10-second send timeout: the others are not waiting for the hung one.
    await gateway.waitFor(4, 3000);
    for (const id of others) {
      for (let i = 0; i < 100 && (await deliveryOf(id)).status !== 'sent'; i++) await Bun.sleep(20);
      expect(await deliveryOf(id)).toMatchObject({ status: 'sent', attempts: 1 });
    }
    expect(await deliveryOf(hung)).toMatchObject({ status: 'sending' });

    // Another process's pass meanwhile finds nothing: the hung reply's lease still holds.
    expect(await deliverDueReplies(t.deps)).toBe(0);
    release();
    expect(await batch).toBe(4);
    expect(await deliveryOf(hung)).toMatchObject({ status: 'sent', attempts: 1 });

    const keys = gateway.received.map((r) => r.headers.get('idempotency-key'));
    expect(keys.sort()).toEqual([hung, ...others].sort());
  });
});
