import { beforeAll, describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking } from '../bookings/test-fixtures.ts';

const { t, clock, fx } = bookingTest();

beforeAll(async () => {
  // The demo's own bookings were received on 2026-06-15; these three are received on 2026-09-01.
  clock.set('2026-09-01T10:00:00Z');
  await opsBooking(t, fx, { channel: 'QDO', checkin_date: '2027-03-10', checkout_date: '2027-03-12', amount: 240 });
  await opsBooking(t, fx, {
    channel: 'BDC',
    room: 1,
    checkin_date: '2027-03-11',
    checkout_date: '2027-03-14',
    amount: 300,
  });
  const cancelled = await opsBooking(t, fx, {
    channel: 'GHA',
    room: 1,
    checkin_date: '2027-03-20',
    checkout_date: '2027-03-21',
    amount: 100,
  });
  clock.set('2026-09-02T10:00:00Z');
  const res = await t.request(
    'POST',
    `/v1/qc/properties/${fx.property}/bookings/${cancelled.external_booking_id}/cancel`,
    {
      token: fx.token,
    },
  );
  if (res.status !== 200) throw new Error(`cancel failed: ${res.text}`);
});

const report = (name: string, from: string, to: string) =>
  t.request('GET', `/v1/qc/properties/${fx.property}/analytics/${name}`, { token: fx.token, query: { from, to } });

describe('built-in analytics', () => {
  it('computes occupancy, ADR and RevPAR from the nights booked inside the range', async () => {
    const res = await report('overview', '2027-03-10', '2027-03-12');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ property_id: fx.property, report: 'overview', source: 'builtin' });
    // 4 units (double room 1 + apartment 3) x 3 nights; booked: 2 nights of the first stay, 2 of the second.
    expect(res.body.data.data).toEqual({
      currency: 'EUR',
      room_nights_available: 12,
      room_nights_sold: 4,
      occupancy: 0.3333,
      room_revenue: 440,
      adr: 110,
      revpar: 36.67,
      bookings_received: 0,
      cancellations: 0,
      other_currency_bookings: 0,
    });
  });

  it('breaks the bookings received in a range down by channel, status, source, funnel stage and campaign', async () => {
    const bookings = (await report('bookings', '2026-09-01', '2026-09-01')).body.data.data;
    expect(bookings.total).toEqual({ bookings: 3, room_nights: 6, revenue: 640 });
    expect(bookings.by_status).toEqual([
      { status: 'cancelled', bookings: 1, revenue: 100 },
      { status: 'confirmed', bookings: 2, revenue: 540 },
    ]);
    const traffic = (await report('traffic', '2026-09-01', '2026-09-01')).body.data.data;
    expect(traffic.sessions).toBeNull();
    expect(traffic.sources).toContainEqual({
      source: 'metasearch',
      channels: ['GHA'],
      bookings: 1,
      share: 0.3333,
      revenue: 100,
    });
    const funnel = (await report('funnel', '2026-09-01', '2026-09-01')).body.data.data;
    expect(funnel).toMatchObject({ searches: null, created: 3, confirmed: 2, cancelled: 1, no_show: 0, stayed: 0 });
    const campaigns = (await report('campaigns', '2026-09-01', '2026-09-01')).body.data.data;
    expect(campaigns.campaigns).toEqual([
      { campaign: 'search_ads', bookings: 1, room_nights: 1, revenue: 100, clicks: null, cost: null },
    ]);
  });

  it('shows pace: on the books now per stay date against the same point last year', async () => {
    const pace = (await report('pace', '2027-03-11', '2027-03-12')).body.data.data;
    expect(pace.as_of).toBe('2026-09-02T10:00:00.000Z');
    expect(pace.days).toEqual([
      {
        date: '2027-03-11',
        room_nights: 2,
        revenue: 220,
        last_year_date: '2026-03-11',
        last_year_room_nights: 0,
        last_year_revenue: 0,
      },
      {
        date: '2027-03-12',
        room_nights: 1,
        revenue: 100,
        last_year_date: '2026-03-12',
        last_year_room_nights: 0,
        last_year_revenue: 0,
      },
    ]);
  });

  it('answers from its cache for a minute per property, report and range', async () => {
    const first = await report('overview', '2027-04-01', '2027-04-02');
    await opsBooking(t, fx, { channel: 'QDO', checkin_date: '2027-04-01', checkout_date: '2027-04-02', amount: 90 });
    const cached = await report('overview', '2027-04-01', '2027-04-02');
    expect(cached.body.data).toEqual(first.body.data);
    clock.advance(60_000);
    const fresh = await report('overview', '2027-04-01', '2027-04-02');
    expect(fresh.body.data.data.room_nights_sold).toBe(first.body.data.data.room_nights_sold + 1);
  });
});
