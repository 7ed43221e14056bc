import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const deliver = (channel: string, body: unknown, token = demo.personal_token) =>
  t.request('POST', '/v1/qc/inbound/webhooks', { token, query: { channel }, body });

const review = (over: Record<string, unknown> = {}) => ({
  kind: 'review',
  external_property_id: demo.properties[0]?.id,
  review: {
    channel_review_id: 'AGO-555',
    rating: 8,
    title: 'Good value',
    booking_id: (demo.bookings as { external_booking_id: string }[])[0]?.external_booking_id,
    submitted_at: '2026-06-18T09:00:00.000Z',
    ...over,
  },
});

describe('reviews through the inbound channel webhook', () => {
  it('receives a review, ties it to the booking, and answers unchanged for a redelivery', async () => {
    const first = await deliver('AGO', review());
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ outcome: 'created' });
    const again = await deliver('AGO', review());
    expect(again.body.data).toEqual({ review_id: first.body.data.review_id, outcome: 'unchanged' });
    const edited = await deliver('AGO', review({ rating: 6 }));
    expect(edited.body.data.outcome).toBe('updated');
    const shown = await t.request(
      'GET',
      `/v1/qc/properties/${demo.properties[0]?.id}/reviews/${first.body.data.review_id}`,
      {
        token: demo.personal_token,
      },
    );
    expect(shown.body.data).toMatchObject({
      channel: 'AGO',
      rating: 6,
      rating_scale: 10,
      booking_id: (demo.bookings as { external_booking_id: string }[])[0]?.external_booking_id,
    });
  });

  it('refuses a lone surrogate or a NUL in a review as in a reservation: 422 payload_invalid naming the field, nothing stored', async () => {
    for (const title of ['a\ud800b', 'a\u0000b']) {
      const id = `AGO-CHARS-${crypto.randomUUID()}`;
      const res = await deliver('AGO', review({ channel_review_id: id, title }));
      expect([res.status, res.body.message, res.body.errors]).toEqual([
        422,
        'errors.qc.webhook.payload_invalid',
        { 'review.title': ['customer.inbound_webhook.messages.invalid_characters'] },
      ]);
      const [stored] = await t.deps.db.sql`select 1 from reviews where channel_review_id = ${id}`;
      expect(stored).toBeUndefined();
    }
  });

  it('refuses a malformed review block with 422 payload_invalid and a property outside the grant with missing_property', async () => {
    const malformed = await deliver('BDC', review({ rating: 'great' }));
    expect(malformed.status).toBe(422);
    expect(malformed.body).toMatchObject({
      message: 'errors.qc.webhook.payload_invalid',
      errors: { 'review.rating': ['customer.review.messages.number'] },
    });
    const other = await t.demo();
    const foreign = await deliver('BDC', { ...review(), external_property_id: other.properties[0]?.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe('errors.qc.webhook.missing_property');
  });
});
