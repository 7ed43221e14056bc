import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import type { Demo } from '../demo/demo.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { startReceiver, type TestReceiver } from '../webhooks/test-support.ts';
import { deliverDueReplies } from './reply-delivery.ts';
import { givenReview } from './test-fixtures.ts';

let t: TestApp;
let demo: Demo;
let gateway: TestReceiver;
let failNext = 0;
const clock = new ManualClock(new Date('2026-06-21T09:00:00Z'));

beforeAll(async () => {
  gateway = startReceiver(() => (failNext-- > 0 ? new Response('busy', { status: 503 }) : new Response('ok')));
  t = await startTestApp({ clock, env: { QC_CHANNEL_GATEWAY_URL: gateway.url } });
  demo = await t.demo();
});
afterAll(async () => {
  await t.close();
  await gateway.stop();
});

const path = (suffix = '') => `/v1/qc/properties/${demo.properties[0]?.id}/reviews${suffix}`;

describe('reviews', () => {
  it('lists and shows reviews from channels, newest first, with filters', async () => {
    const older = await givenReview(t, demo, 'BDC', { submitted_at: '2026-06-01T08:00:00.000Z', rating: 8.5 });
    const newer = await givenReview(t, demo, 'HRS', { submitted_at: '2026-06-10T08:00:00.000Z', rating: 6 });
    const list = await t.request('GET', path(), { token: demo.personal_token });
    expect(list.status).toBe(200);
    const ids = list.body.data.reviews.map((r: { id: string }) => r.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    const hrs = await t.request('GET', path(), { token: demo.personal_token, query: { channel: 'HRS' } });
    expect(hrs.body.data.reviews.map((r: { id: string }) => r.id)).toEqual([newer]);
    const shown = await t.request('GET', path(`/${older}`), { token: demo.personal_token });
    expect(shown.body.data).toMatchObject({
      id: older,
      channel: 'BDC',
      replies_supported: true,
      rating: 8.5,
      rating_scale: 10,
      reply: null,
    });
  });

  it('takes one reply, sends it to the channel through the delivery job, retrying until the channel accepts', async () => {
    const id = await givenReview(t, demo, 'BDC');
    const replied = await t.request('POST', path(`/${id}/reply`), {
      token: demo.personal_token,
      body: { text: 'Thank you, Anna!' },
    });
    expect(replied.status).toBe(201);
    expect(replied.body.data.reply).toMatchObject({
      text: 'Thank you, Anna!',
      delivery: { status: 'pending', attempts: 0, last_error: null, sent_at: null },
    });

    failNext = 1;
    expect(await deliverDueReplies(t.deps)).toBeGreaterThanOrEqual(1);
    const retrying = await t.request('GET', path(`/${id}`), { token: demo.personal_token });
    expect(retrying.body.data.reply.delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'channel gateway answered 503',
      next_attempt_at: '2026-06-21T09:00:30.000Z',
    });
    expect(await deliverDueReplies(t.deps)).toBe(0);

    clock.advance(30_000);
    await deliverDueReplies(t.deps);
    const sent = await t.request('GET', path(`/${id}`), { token: demo.personal_token });
    expect(sent.body.data.reply.delivery).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    const delivered = gateway.received.filter((r) => r.headers.get('idempotency-key') === id);
    expect(delivered).toHaveLength(2);
    expect(JSON.parse(delivered[1]?.body as string)).toMatchObject({ review_id: id, text: 'Thank you, Anna!' });
  });
});

describe('review intake through the operator API', () => {
  it('receives a review once and answers unchanged for a redelivery', async () => {
    const body = {
      property_id: demo.properties[0]?.id,
      channel: 'EXP',
      channel_review_id: 'EXP-OPS-1',
      rating: 4,
      title: 'Nice',
      submitted_at: '2026-06-19T12:00:00.000Z',
    };
    const first = await t.ops('POST', '/ops/reviews', body);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ outcome: 'created', channel: 'EXP', rating: 4, rating_scale: 5 });
    const again = await t.ops('POST', '/ops/reviews', body);
    expect(again.body.data).toMatchObject({ outcome: 'unchanged', id: first.body.data.id });
    const unknown = await t.ops('POST', '/ops/reviews', { ...body, channel: 'QDO' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('errors.qc.review_unknown_channel');
  });
});
