import { describe, expect, it } from 'bun:test';
import { call, configTest } from '../../config-surfaces/test-fixtures.ts';
import { validationEnvelope } from '../../testing/error-envelope.ts';

/**
 * A date or date-time PostgreSQL cannot store is refused by its format, as a 422 naming the field with rule
 * `format`: `0000-01-01` reached the database and came back from the class-22 net as `request: breaks the rule
 * "invalid"`, and a date-time in quotes (which the format unquoted and the handler could not read) was a 500.
 */
const c = configTest();

describe('dates and date-times PostgreSQL cannot store', () => {
  it('are a 422 naming the date field of a special offer', async () => {
    const button = (await call(c, 'GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
    const res = await call(c, 'POST', `/booking_buttons/${button}/special_offers`, {
      name: 'Year zero',
      active_from_date: '0000-01-01',
      active_to_date: '2026-12-31',
      rate_plans_ids: ['BAR'],
      discount_percent: 5,
    });
    expect(res.body).toEqual(
      validationEnvelope('active_from_date: has the wrong format.', {
        active_from_date: ['customer.special_offer.messages.format'],
      }),
    );
  });

  it('are a 422 naming the date-time field of guest feedback', async () => {
    const bookings = await call(c, 'GET', `/properties/${c.property}/bookings`);
    const booking = bookings.body.data.bookings[0].external_booking_id;
    const answers: Record<string, unknown> = {};
    const refused = [
      '0000-06-01T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '0001-01-01T00:00:00Z',
      '"2026-01-01T00:00:00Z"',
      '2026-02-30T00:00:00Z',
    ];
    for (const answered_at of refused)
      answers[answered_at] = (
        await call(c, 'POST', `/properties/${c.property}/guest_feedback`, {
          booking_id: booking,
          overall_score: 8,
          answered_at,
        })
      ).body;
    const format = validationEnvelope('answered_at: has the wrong format.', {
      answered_at: ['customer.guest_feedback.messages.format'],
    });
    expect(answers).toEqual(Object.fromEntries(refused.map((value) => [value, format])));
    // The first year the format takes is answered as sent.
    const kept = await call(c, 'POST', `/properties/${c.property}/guest_feedback`, {
      booking_id: booking,
      overall_score: 8,
      answered_at: '0100-01-01T00:00:00Z',
    });
    expect(kept.body.data.answered_at).toBe('0100-01-01T00:00:00.000Z');
  });
});
