import { describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { ApiError } from '../core/http/api-error.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { receiveReview } from './intake.ts';
import { deliverDueReplies, REPLY_RETRY_LADDER } from './reply-delivery.ts';
import { givenReview } from './test-fixtures.ts';

const clock = new ManualClock(new Date('2026-06-21T09:00:00Z'));
// No channel gateway configured: every send fails, visibly.
const t = testAppPerFile({ clock });
const demo = perFile(() => t.demo());

const path = (suffix = '') => `/v1/qc/properties/${demo.properties[0]?.id}/reviews${suffix}`;
const reply = (id: string, text = 'Thanks!', headers: Record<string, string> = {}) =>
  t.request('POST', path(`/${id}/reply`), { token: demo.personal_token, body: { text }, headers });

describe('reply refusals', () => {
  it('refuses a second reply with 422 review_already_replied and keeps the first', async () => {
    const id = await givenReview(t, demo, 'EXP');
    expect((await reply(id, 'First')).status).toBe(201);
    const second = await reply(id, 'Second');
    expect(second.status).toBe(422);
    expect(second.body.message).toBe('errors.qc.review_already_replied');
    const shown = await t.request('GET', path(`/${id}`), { token: demo.personal_token });
    expect(shown.body.data.reply.text).toBe('First');
  });

  it('replays the first answer for a retry with the same Idempotency-Key instead of refusing it', async () => {
    const id = await givenReview(t, demo, 'AGO');
    const first = await reply(id, 'Once', { 'idempotency-key': `reply-${id}` });
    const retry = await reply(id, 'Once', { 'idempotency-key': `reply-${id}` });
    expect(retry.status).toBe(first.status);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
  });

  it('refuses a reply to a review from a channel that takes no replies with 422 and writes nothing', async () => {
    const id = await givenReview(t, demo, 'HRS');
    const res = await reply(id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ message: 'errors.qc.review_replies_not_supported', channel: 'HRS' });
    const [row] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from review_reply_deliveries d join reviews r on r.id = d.review_id
      where r.external_id = ${id}`;
    expect(row?.n).toBe(0);
  });

  it('validates the reply text', async () => {
    const id = await givenReview(t, demo, 'BDC');
    const res = await reply(id, '');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ text: ['customer.review.messages.min_length'] });
  });
});

describe('reply delivery without a reachable channel', () => {
  it('shows each failed attempt and ends failed after the whole retry ladder, with a review.reply_failed event', async () => {
    const id = await givenReview(t, demo, 'ABB');
    await reply(id);
    for (const wait of [0, ...REPLY_RETRY_LADDER]) {
      clock.advance(wait * 1000);
      await deliverDueReplies(t.deps);
    }
    const shown = await t.request('GET', path(`/${id}`), { token: demo.personal_token });
    expect(shown.body.data.reply.delivery).toMatchObject({
      status: 'failed',
      attempts: REPLY_RETRY_LADDER.length + 1,
      last_error: 'no channel gateway configured (QC_CHANNEL_GATEWAY_URL)',
      next_attempt_at: null,
    });
    const [event] = await t.deps.db.sql<{ data: Record<string, unknown> }>`
      select data from outbox_events where type = 'review.reply_failed' and data->>'review_id' = ${id}`;
    expect(event?.data).toMatchObject({ channel: 'ABB', attempts: REPLY_RETRY_LADDER.length + 1 });
  });
});

describe('intake', () => {
  it('treats a redelivery as unchanged, an edit as updated, and refuses a channel that sends no reviews', async () => {
    const [property] = await t.deps.db.sql<PropertyRow>`
      select * from properties where external_id = ${demo.properties[0]?.id as string}`;
    const review = { channel_review_id: 'BDC-77', rating: 9, submitted_at: '2026-06-02T10:00:00.000Z' };
    const p = property as PropertyRow;
    expect((await receiveReview(t.deps, p, 'BDC', review)).outcome).toBe('created');
    expect((await receiveReview(t.deps, p, 'BDC', review)).outcome).toBe('unchanged');
    expect((await receiveReview(t.deps, p, 'BDC', { ...review, rating: 7 })).outcome).toBe('updated');
    const refused = await receiveReview(t.deps, p, 'QDO', review).catch((err) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).key).toBe('errors.qc.review_unknown_channel');
  });
});

describe('a rating above its scale', () => {
  // The database outlives a run: ids of their own per run.
  const [opsId, inboundId] = [`EXP-SCALE-${crypto.randomUUID()}`, `ABB-SCALE-${crypto.randomUUID()}`];
  const stored = async (channelReviewId: string) =>
    (
      await t.deps.db.sql<{ rating: number; rating_scale: number }>`
        select rating::float8 as rating, rating_scale from reviews where channel_review_id = ${channelReviewId}`
    )[0];
  const opsReview = (over: Record<string, unknown>) =>
    t.ops('POST', '/ops/reviews', {
      property_id: demo.properties[0]?.id,
      channel: 'EXP',
      channel_review_id: opsId,
      rating: 4,
      submitted_at: '2026-06-19T12:00:00.000Z',
      ...over,
    });

  it("is refused by the operator intake with 422 max on rating, against the channel's scale or its own", async () => {
    // Expedia rates out of 5: 5.5 is off its scale; 8 of a scale of 7 likewise.
    for (const over of [{ rating: 5.5 }, { rating: 8, rating_scale: 7 }, { rating: 11, channel: 'BDC' }]) {
      const res = await opsReview(over);
      expect([over, res.status, res.body.message, res.body.errors]).toEqual([
        over,
        422,
        'errors.validation_error',
        { rating: ['customer.review.messages.max'] },
      ]);
    }
    expect(await stored(opsId)).toBeUndefined();
    // The top of the scale is a rating.
    expect((await opsReview({ rating: 7, rating_scale: 7 })).body.data).toMatchObject({ rating: 7, rating_scale: 7 });
    expect((await opsReview({ rating: 5 })).body.data).toMatchObject({ rating: 5, rating_scale: 5 });
  });

  it('is refused through the inbound channel webhook, and an edit off the scale keeps the stored rating', async () => {
    const deliver = (rating: number) =>
      t.request('POST', '/v1/qc/inbound/webhooks', {
        token: demo.personal_token,
        query: { channel: 'ABB' },
        body: {
          kind: 'review',
          external_property_id: demo.properties[0]?.id,
          review: { channel_review_id: inboundId, rating, submitted_at: '2026-06-19T12:00:00.000Z' },
        },
      });
    expect((await deliver(4)).body.data).toMatchObject({ outcome: 'created' });
    const edited = await deliver(9);
    // The channel hears of it as of any other fault in its payload, on the field's path in the payload.
    expect([edited.status, edited.body.message, edited.body.errors]).toEqual([
      422,
      'errors.qc.webhook.payload_invalid',
      { 'review.rating': ['customer.review.messages.max'] },
    ]);
    expect(await stored(inboundId)).toEqual({ rating: 4, rating_scale: 5 });
  });
});
