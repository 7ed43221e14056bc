import { describe, expect, it } from 'bun:test';
import { legacyTestAppPerFile, TODAY } from '../../legacy/legacy-test-fixture.ts';
import { addDays } from '../core/days.ts';

const t = legacyTestAppPerFile();

interface LegacyDemo {
  api_key: string;
  property_id: number;
  room_ids: number[];
  ext_room_ids: { ext_room_id: string; room_id: number }[];
  bm_code: string;
  bookings: { booking_id: number; generation: 'old' | 'current' }[];
}

describe('POST /ops/demo, legacy part', () => {
  it('gives a working legacy key on the live property, its room ids, a booking module code and bookings of both generations', async () => {
    const demo = await t.demo();
    const legacy = demo.legacy as LegacyDemo;
    const call = (path: string, query: Record<string, string | number> = {}, body?: unknown) =>
      t.request(body ? 'POST' : 'GET', `/api/pms/v1/${path}`, { query: { api_key: legacy.api_key, ...query }, body });

    expect(legacy.api_key).toBe(demo.legacy_api_key);
    const settings = await call('property/getPropertySettings', { names: 'property,rooms' });
    expect(settings.body.data.property.name).toBe(demo.properties[0]?.name);
    expect(settings.body.data.rooms.map((r: { id: number }) => r.id)).toEqual(legacy.room_ids);

    const push = await call(
      'availability/updateAvailability',
      {},
      {
        values: legacy.ext_room_ids.map((e) => ({ ext_room_id: e.ext_room_id, date: TODAY, qty: 2 })),
      },
    );
    expect(push.text).toBe('{"message":"Success"}');

    const offers = await call('property/getBookingOffers', {
      bm_code: legacy.bm_code,
      checkin_date: addDays(TODAY, 1),
      checkout_date: addDays(TODAY, 3),
      'guests[adults]': 2,
    });
    expect(offers.body.data.offers.length).toBeGreaterThan(0);

    const ids = legacy.bookings.map((b) => b.booking_id);
    expect(ids.some((id) => id < 161300) && ids.some((id) => id >= 161300)).toBe(true);
    const sent = await call('booking/getBookings');
    expect(sent.body.data.map((r: { booking_id: number }) => r.booking_id)).toEqual(ids);
  });
});
