import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());
let base: string;
let bookingIds: string[];

beforeAll(() => {
  base = `/v1/qc/properties/${demo.properties[0]?.id}/guest_feedback`;
  bookingIds = (demo.bookings as { external_booking_id: string }[]).map((b) => b.external_booking_id);
});

const call = (method: string, path: string, body?: unknown) =>
  t.request(method, `${base}${path}`, { token: demo.personal_token, body });

describe('guest feedback', () => {
  it('records an answer tied to a booking, with the guest masked, then updates and deletes it', async () => {
    const created = await call('POST', '', {
      booking_id: bookingIds[3],
      overall_score: 9,
      scores: { cleanliness: 10, staff: 8 },
      comment: 'Lovely breakfast.',
      language: 'en',
      answered_at: '2026-06-20T10:00:00.000Z',
    });
    expect(created.status).toBe(201);
    const feedback = created.body.data;
    expect(feedback).toMatchObject({
      booking_id: bookingIds[3],
      overall_score: 9,
      scores: { cleanliness: 10, staff: 8 },
      would_recommend: null,
      answered_at: '2026-06-20T10:00:00.000Z',
    });
    expect(feedback.guest_last_name).toMatch(/^(\p{Lu}\.|)$/u);
    const patched = await call('PATCH', `/${feedback.id}`, { would_recommend: true, comment: 'Lovely.' });
    expect(patched.body.data).toMatchObject({ overall_score: 9, would_recommend: true, comment: 'Lovely.' });
    const listed = await call('GET', `?booking_id=${bookingIds[3]}`);
    expect(listed.body.data.guest_feedback.map((f: { id: string }) => f.id)).toEqual([feedback.id]);
    expect(listed.body.data.meta.total).toBe(1);
    expect((await call('DELETE', `/${feedback.id}`)).body.data).toEqual({ id: feedback.id, deleted: true });
    expect((await call('GET', `/${feedback.id}`)).status).toBe(404);
  });

  it('merges a PATCH of scores category by category, null removing a category', async () => {
    const created = await call('POST', '', {
      booking_id: bookingIds[4],
      overall_score: 8,
      scores: { cleanliness: 10, staff: 8 },
    });
    const id = created.body.data.id;
    const patched = await call('PATCH', `/${id}`, { scores: { staff: null, comfort: 7 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.scores).toEqual({ cleanliness: 10, comfort: 7 });
    expect((await call('GET', `/${id}`)).body.data.scores).toEqual({ cleanliness: 10, comfort: 7 });
    const refused = await call('PATCH', `/${id}`, { scores: { comfort: 0 } });
    expect(refused.status).toBe(422);
    await call('DELETE', `/${id}`);
  });

  it('refuses a second answer for the same booking with 409 naming the first', async () => {
    const first = await call('POST', '', { booking_id: bookingIds[1], overall_score: 7 });
    const second = await call('POST', '', { booking_id: bookingIds[1], overall_score: 3 });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ message: 'errors.qc.guest_feedback_exists', feedback_id: first.body.data.id });
  });

  it('refuses an unknown booking with 422 and a score out of 1..10 with a validation error', async () => {
    const unknown = await call('POST', '', { booking_id: 'NOPE-1', overall_score: 5 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('errors.qc.guest_feedback_unknown_booking');
    const bad = await call('POST', '', { booking_id: bookingIds[2], overall_score: 11, scores: { wifi: 3 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.overall_score).toEqual(['customer.guest_feedback.messages.max']);
  });

  it("answers 404 for another customer's booking and feedback", async () => {
    const other = await t.demo();
    // The demo's own feedback sits on its first booking.
    const theirBooking = (other.bookings as { external_booking_id: string }[])[1]?.external_booking_id;
    const res = await call('POST', '', { booking_id: theirBooking, overall_score: 5 });
    expect(res.status).toBe(422);
    const theirs = await t.request('POST', `/v1/qc/properties/${other.properties[0]?.id}/guest_feedback`, {
      token: other.personal_token,
      body: { booking_id: theirBooking, overall_score: 5 },
    });
    expect(theirs.status).toBe(201);
    expect((await call('GET', `/${theirs.body.data.id}`)).status).toBe(404);
    const foreign = await t.request('GET', `/v1/qc/properties/${other.properties[0]?.id}/guest_feedback`, {
      token: demo.personal_token,
    });
    expect(foreign.status).toBe(404);
  });
});
