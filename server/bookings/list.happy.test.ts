import { beforeAll, describe, expect, it } from 'bun:test';
import { bookingTest, opsBooking } from './test-fixtures.ts';

const made: Record<string, { id: number; external_booking_id: string }> = {};
let before: number;

/** Five bookings an hour apart (received 11:00..15:00 UTC = 12:00..16:00 in Europe/Lisbon). */
const { t, fx, clock } = bookingTest();
beforeAll(async () => {
  before = (await list({})).body.data.meta.total;
  const specs: [string, Record<string, unknown>][] = [
    [
      'ann',
      {
        channel: 'BDC',
        guest: { first_name: 'Ann', last_name: 'Smith' },
        checkin_date: '2026-07-01',
        checkout_date: '2026-07-03',
      },
    ],
    [
      'bob',
      {
        channel: 'EXP',
        guest: { first_name: 'Bob', last_name: 'Annesley' },
        checkin_date: '2026-07-05',
        checkout_date: '2026-07-06',
      },
    ],
    [
      'cid',
      {
        channel: 'QDO',
        guest: { first_name: 'Cid', last_name: 'Jones' },
        checkin_date: '2026-07-10',
        checkout_date: '2026-07-12',
        tentative: true,
      },
    ],
    [
      'dee',
      {
        channel: 'BDC',
        guest: { first_name: 'Dee', last_name: 'Brown' },
        checkin_date: '2026-07-15',
        checkout_date: '2026-07-20',
      },
    ],
    [
      'eve',
      {
        channel: 'ABB',
        guest: { first_name: 'Eve', last_name: 'White' },
        checkin_date: '2026-08-01',
        checkout_date: '2026-08-02',
      },
    ],
  ];
  for (const [name, spec] of specs) {
    clock.advance(3_600_000);
    made[name] = await opsBooking(t, fx, {
      ...spec,
      guest: { email: `${name}@example.com`, ...(spec.guest as object) },
    });
  }
  await t.ops('POST', `/ops/bookings/${made.dee?.id}/cancel`, { cancelled_by: 'guest', reason_code: 'x' });
  await t.ops('POST', `/ops/bookings/${made.eve?.id}/no-show`);
});

function list(query: Record<string, string | number>) {
  return t.request('GET', `/v1/qc/properties/${fx.property}/bookings`, { token: fx.token, query });
}

/** The names of our bookings in the answer, in answer order. */
async function names(query: Record<string, string | number>): Promise<string[]> {
  const res = await list({ limit: 100, ...query });
  expect(res.status).toBe(200);
  const byId = new Map(Object.entries(made).map(([name, b]) => [b.external_booking_id, name]));
  return (res.body.data.bookings as { external_booking_id: string }[])
    .map((b) => byId.get(b.external_booking_id))
    .filter((n): n is string => !!n);
}

describe('GET /properties/{ext}/bookings', () => {
  it('lists newest first with meta, masked guests and status', async () => {
    const res = await list({});
    expect(res.body.data.meta).toEqual({ total: before + 5, page: 1, per_page: 50, last_page: 1 });
    expect(await names({})).toEqual(['eve', 'dee', 'cid', 'bob', 'ann']);
    const eve = res.body.data.bookings[0];
    expect(eve).toMatchObject({
      external_booking_id: made.eve?.external_booking_id,
      inbound_booking_id: made.eve?.id,
      status: 'no_show',
      source_channel: 'ABB',
      guest_first_name: 'Eve',
      guest_last_name: 'W.',
      guest_email: 'e**************',
      no_show_at: expect.any(String),
      received_at: '2026-06-15T15:00:00.000Z',
    });
  });

  it('pages with limit and page, clamps limit to 100 and drops malformed values', async () => {
    const page2 = await list({ limit: 2, page: 2 });
    expect(page2.body.data.meta).toEqual({
      total: before + 5,
      page: 2,
      per_page: 2,
      last_page: Math.ceil((before + 5) / 2),
    });
    expect(page2.body.data.bookings.map((b: { external_booking_id: string }) => b.external_booking_id)).toEqual([
      made.cid?.external_booking_id,
      made.bob?.external_booking_id,
    ]);
    expect((await list({ limit: 1000 })).body.data.meta.per_page).toBe(100);
    for (const bad of [{ limit: 'ten' }, { limit: -3 }, { page: 'x' }, { page: 0 }] as Record<
      string,
      string | number
    >[]) {
      const res = await list(bad);
      expect(res.status).toBe(200);
      expect(res.body.data.meta).toMatchObject({ page: 1, per_page: 50, total: before + 5 });
    }
  });

  it('filters by check-in and check-out ranges (dates or date-times, inclusive)', async () => {
    expect(await names({ checkin_from: '2026-07-05', checkin_to: '2026-07-15' })).toEqual(['dee', 'cid', 'bob']);
    expect(await names({ checkin_from: '2026-07-05 18:30:00', checkin_to: '2026-07-10 00:00:00' })).toEqual([
      'cid',
      'bob',
    ]);
    expect(await names({ checkout_from: '2026-07-06', checkout_to: '2026-07-12' })).toEqual(['cid', 'bob']);
    expect(await names({ checkout_to: '2026-07-03' })).toEqual(['ann']);
  });

  it('filters by received time in the property time zone', async () => {
    // Lisbon is UTC+1 in June: bob was received 12:00 UTC = 13:00 local, cid 14:00 local.
    expect(await names({ inserted_from: '2026-06-15 13:00:00', inserted_to: '2026-06-15 14:00:00' })).toEqual([
      'cid',
      'bob',
    ]);
    expect(await names({ inserted_from: '2026-06-15 14:00:01' })).toEqual(['eve', 'dee']);
    expect(await names({ inserted_to: '2026-06-14' })).toEqual([]);
    expect(await names({ inserted_from: '2026-06-15', inserted_to: '2026-06-15' })).toEqual([
      'eve',
      'dee',
      'cid',
      'bob',
      'ann',
    ]);
  });

  it('filters by booking_status, single or repeated booking_status[], dropping unknown values', async () => {
    expect(await names({ booking_status: 'cancelled' })).toEqual(['dee']);
    expect(await names({ booking_status: 'created' })).toEqual(['cid']);
    const res = await t.request(
      'GET',
      `/v1/qc/properties/${fx.property}/bookings?booking_status[]=no_show&booking_status[]=cancelled&booking_status[]=bogus&limit=100`,
      { token: fx.token },
    );
    const statuses = (res.body.data.bookings as { status: string }[]).map((b) => b.status);
    expect(statuses.length).toBe(res.body.data.meta.total);
    expect(new Set(statuses)).toEqual(new Set(['no_show', 'cancelled']));
    expect(res.body.data.bookings.map((b: { external_booking_id: string }) => b.external_booking_id)).toEqual(
      expect.arrayContaining([made.eve?.external_booking_id, made.dee?.external_booking_id]),
    );
    expect((await list({ booking_status: 'bogus' })).body.data.meta.total).toBe(before + 5);
  });

  it('filters by exact source_channel, guest name substring (case-insensitive, first or last) and booking id substring', async () => {
    expect(await names({ source_channel: 'BDC' })).toEqual(['dee', 'ann']);
    expect(await names({ source_channel: 'bdc' })).toEqual([]);
    expect((await list({ source_channel: 'X'.repeat(33) })).body.data.meta.total).toBe(before + 5);
    expect(await names({ guest_name: 'ann' })).toEqual(['bob', 'ann']);
    expect(await names({ guest_name: 'BROWN' })).toEqual(['dee']);
    expect((await list({ guest_name: 'a'.repeat(101) })).body.data.meta.total).toBe(before + 5);
    expect(await names({ booking_id: made.cid?.external_booking_id as string })).toEqual(['cid']);
    expect((await list({ booking_id: 'no-such-booking' })).body.data.meta.total).toBe(0);
  });

  it('drops malformed dates instead of rejecting them, and combines filters with total under all of them', async () => {
    for (const bad of ['2026-13-01', 'yesterday', '2026-07-01 25:00:00', '2026-7-1']) {
      const res = await list({ checkin_from: bad, inserted_from: bad, checkout_to: bad });
      expect([bad, res.status, res.body.data.meta.total]).toEqual([bad, 200, before + 5]);
    }
    // Text a database cannot hold (a NUL) is as malformed as any: dropped, not a 422 or a 500.
    for (const bad of ['\u0000', 'Br\u0000own']) {
      const res = await list({ guest_name: bad, booking_id: bad, source_channel: bad, booking_status: bad, page: bad });
      expect([bad, res.status, res.body.data?.meta.total]).toEqual([bad, 200, before + 5]);
    }
    const combined = await list({ source_channel: 'BDC', checkin_from: '2026-07-02', limit: 1 });
    expect(combined.body.data.meta).toEqual({ total: 1, page: 1, per_page: 1, last_page: 1 });
  });
});
