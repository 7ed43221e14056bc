import { beforeAll, describe, expect, it } from 'bun:test';
import { legacyFixture, legacyTest } from '../legacy-test-fixture.ts';
import { linkExtRoom } from './rooms.ts';

let room: number;

const { t, f } = legacyTest();
beforeAll(async () => {
  room = f.roomIds[0] as number;
  await f.call('availability/updateAvailability', {
    body: {
      values: [
        { room_id: room, date_from: '2031-01-10', date_to: '2031-01-12', qty: 3 },
        { room_id: room, date: '2031-01-11', closed: true },
        { room_id: f.roomIds[1], date: '2031-01-10', qty: 1 },
      ],
    },
  });
});

const get = (query: Record<string, string | number>) => f.call('availability/getAvailability', { query });

describe('getAvailability', () => {
  it('answers the calendar rows of one room: qty = offered - booked, and the sale flag', async () => {
    await f.book({ checkinDate: '2031-01-10', checkoutDate: '2031-01-11' });
    const res = await get({ room_id: room, date_from: '2031-01-09', date_to: '2031-01-12' });
    expect(res.text).toBe(
      `{"data":[{"room_id":${room},"date":"2031-01-10","qty":2,"opened":true},` +
        `{"room_id":${room},"date":"2031-01-11","qty":3,"opened":false},` +
        `{"room_id":${room},"date":"2031-01-12","qty":3,"opened":true}]}`,
    );
  });

  it('answers every room of the property without a room parameter, and an empty list for an empty range', async () => {
    const res = await get({ date_from: '2031-01-10', date_to: '2031-01-10' });
    expect(res.body.data.map((d: { room_id: number }) => d.room_id)).toEqual([room, f.roomIds[1]]);
    expect((await get({ date_from: '2031-03-01', date_to: '2031-03-02' })).text).toBe('{"data":[]}');
  });

  it('resolves ext_room_id through the PMS mapping', async () => {
    await f.call('property/postExternalPropertyData', {
      body: { property: { id: 'H', name: 'H', mapping_data: { rooms_types: [{ id: 77, name: 'Double' }] } } },
    });
    await linkExtRoom(t.deps.db, f.keyId, '77', room);
    const res = await get({ ext_room_id: '77', date_from: '2031-01-12', date_to: '2031-01-12' });
    expect(res.text).toBe(`{"data":[{"room_id":${room},"date":"2031-01-12","qty":3,"opened":true}]}`);
  });

  it('refuses a range backwards, longer than the update window, or a room of another property', async () => {
    const bad = '{"message":"Missing\\/Invalid required request data!"}';
    expect((await get({ date_from: '2031-01-12', date_to: '2031-01-10' })).text).toBe(bad);
    // 732 days with both ends counted (2032 is a leap year) is the longest range; one day more is refused.
    expect((await get({ date_from: '2031-01-01', date_to: '2033-01-01' })).status).toBe(200);
    expect((await get({ date_from: '2031-01-01', date_to: '2033-01-02' })).text).toBe(bad);
    const other = await legacyFixture(t);
    expect(
      (await get({ room_id: other.roomIds[0] as number, date_from: '2031-01-10', date_to: '2031-01-10' })).text,
    ).toBe(bad);
  });
});
