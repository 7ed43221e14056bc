import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Issue 28 item 7: PATCH of an extra service with part of `client_select_dates_settings` answered 422
 * `max_days: required`, while spec 2.9 says PATCH accepts partial bodies; a special offer's `sfp` and a
 * feedback's `scores` were replaced whole. One rule on every PATCH: a nested object merges field by field
 * with the stored one (an omitted field keeps its value, null clears it); arrays and maps replace.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const call = (method: string, path: string, body?: unknown) =>
  t.request(method, `/v1/qc${path}`, { token: demo.personal_token, body });

describe('PATCH merges nested objects field by field', () => {
  it('keeps the stored max_days of an extra service when a PATCH sends only min_days', async () => {
    const base = `/properties/${demo.properties[0]?.id}/extra_services`;
    const created = await call('POST', base, {
      name: 'Parking',
      price: 10,
      price_type: 1,
      client_select_dates_settings: { type: '2', min_days: 1, max_days: 5 },
    });
    expect(created.status).toBe(201);
    const patched = await call('PATCH', `${base}/${created.body.data.id}`, {
      client_select_dates_settings: { min_days: 2 },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.client_select_dates_settings).toEqual({ type: '2', min_days: 2, max_days: 5 });
  });

  it('keeps the stored max_nights of a special offer when a PATCH sends only min_nights', async () => {
    const property = demo.properties[0]?.id;
    const buttons = await call('GET', `/properties/${property}/booking_buttons`);
    const button = buttons.body.data.booking_buttons[0].id;
    const created = await call('POST', `/booking_buttons/${button}/special_offers`, {
      name: 'Long stay',
      active_from_date: '2030-07-01',
      active_to_date: '2030-08-31',
      rate_plans_ids: ['BAR'],
      sfp: { min_nights: 2, max_nights: 7 },
      discount_percent: 10,
    });
    expect(created.status).toBe(201);
    const patched = await call('PATCH', `/special_offers/${created.body.data.id}`, { sfp: { min_nights: 3 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.sfp).toEqual({ min_nights: 3, max_nights: 7 });
  });

  it('keeps the other score categories of a guest feedback when a PATCH sends one', async () => {
    const base = `/properties/${demo.properties[0]?.id}/guest_feedback`;
    // The demo answered some of its bookings already: take the first one without feedback.
    let created = { status: 0, body: { data: { id: '' } } } as Awaited<ReturnType<typeof call>>;
    for (const { external_booking_id } of demo.bookings as { external_booking_id: string }[]) {
      created = await call('POST', base, {
        booking_id: external_booking_id,
        overall_score: 8,
        scores: { cleanliness: 10, staff: 8 },
      });
      if (created.status !== 409) break;
    }
    expect(created.status).toBe(201);
    const patched = await call('PATCH', `${base}/${created.body.data.id}`, { scores: { staff: 9 } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.scores).toEqual({ cleanliness: 10, staff: 9 });
  });

  it('is what the API document says of each of these PATCH operations', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    for (const [path, field, merge] of [
      ['/properties/{property}/extra_services/{service}', 'client_select_dates_settings', 'merges field by field'],
      ['/special_offers/{offer}', 'sfp', 'merges field by field'],
      ['/properties/{property}/guest_feedback/{feedback}', 'scores', 'merges category by category'],
    ]) {
      const description: string = doc.paths[`/v1/qc${path}`].patch.description;
      expect(description).toContain(`\`${field}\` ${merge}`);
      expect(description).not.toContain('as a whole');
    }
  });
});
