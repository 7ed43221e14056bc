import { beforeAll, describe, expect, it } from 'bun:test';
import { legacyFixture, legacyTest } from '../legacy-test-fixture.ts';

let dbl: number;
let apt: number;

const { t, f } = legacyTest();
beforeAll(async () => {
  [dbl, apt] = f.roomIds as [number, number];
  await t.deps.db
    .sql`update room_types set images = ${['https://img.example.com/rooms/dbl-1.jpg']}, name_tr = ${{ 'de-DE': 'Doppelzimmer' }}
    where id = ${dbl}`;
});

const doubleRoom = (name = 'Double Room') =>
  `{"id":${dbl},"name":"${name}","description":"<p>Sea-view double room.<\\/p>","type":7,"type_name":"Room","sqm_area":22.0,` +
  `"regular_beds":2,"extra_beds":1,"extra_beds_children_only":0,"no_beds":0,"images":["https:\\/\\/img.example.com\\/rooms\\/dbl-1.jpg"]}`;
const apartment = () =>
  `{"id":${apt},"name":"Family Apartment","description":"","type":4,"type_name":"Apartment","sqm_area":48.0,` +
  `"regular_beds":4,"extra_beds":2,"extra_beds_children_only":0,"no_beds":1,"images":[]}`;

describe('getRoomsDetails', () => {
  it('lists every room of the property as room details (spec 2.10), byte for byte', async () => {
    expect((await f.call('property/getRoomsDetails')).text).toBe(`{"data":[${doubleRoom()},${apartment()}]}`);
  });

  it('answers one room for room_id, named at the request locale', async () => {
    expect((await f.call('property/getRoomsDetails', { query: { room_id: dbl, lang: 'de' } })).text).toBe(
      `{"data":[${doubleRoom('Doppelzimmer')}]}`,
    );
  });

  it("passes the loader's message through for a room of another property", async () => {
    const other = await legacyFixture(t);
    const res = await f.call('property/getRoomsDetails', { query: { room_id: other.roomIds[0] as number } });
    expect([res.status, res.text]).toEqual([
      404,
      `{"message":"Room with id ${other.roomIds[0]} not found for this property!"}`,
    ]);
  });
});

describe('getPropertySettings', () => {
  const settings = (names?: string) =>
    f.call('property/getPropertySettings', { query: names === undefined ? {} : { names } });

  it('answers every key, in the spec order, when names is empty or omitted', async () => {
    const keys = [
      'property',
      'rooms',
      'rates',
      'services',
      'payment_methods',
      'payment_methods_types',
      'meal_plans',
      'bed_types',
      'booking_modules',
      'booking_ota_codes',
    ];
    expect(Object.keys((await settings()).body.data)).toEqual(keys);
    expect(Object.keys((await settings('')).body.data)).toEqual(keys);
  });

  it('answers only the named keys, case-sensitively, ignoring unknown names', async () => {
    const res = await settings('booking_modules, property,Rooms,nonsense');
    const bmCode = (f.demo.legacy as { bm_code: string }).bm_code;
    expect(res.body.data).toEqual({
      property: { id: f.propertyId, name: f.demo.properties[0]?.name },
      booking_modules: [{ id: expect.any(Number), name: 'Seaside booking engine', url_key: bmCode }],
    });
    expect(Object.keys(res.body.data)).toEqual(['property', 'booking_modules']);
  });

  it('keeps data an object when no known name is asked', async () => {
    expect((await settings('ROOMS,unknown')).text).toBe('{"data":{}}');
  });

  it('lists the rooms as room details and the rates with their rooms', async () => {
    const res = await settings('rooms,rates');
    expect(res.text.startsWith(`{"data":{"rooms":[${doubleRoom()},${apartment()}],"rates":[`)).toBe(true);
    expect(res.body.data.rates).toContainEqual({ id: f.barPlanId, name: 'Flexible Room Rate', room_ids: [dbl, apt] });
  });
});

describe('postExternalPropertyData', () => {
  const post = (body: unknown) => f.call('property/postExternalPropertyData', { body });
  const stored = async () => {
    const [row] = await t.deps.db.sql<{ ext_property_id: string; ext_property_name: string; mapping_data: unknown }>`
      select ext_property_id, ext_property_name, mapping_data from legacy_pms_property_data where key_id = ${f.keyId}`;
    return row;
  };

  it('stores the PMS property and its mapping verbatim, missing arrays empty, replacing the previous post', async () => {
    const rooms = [
      { id: 'R/1', name: 'Dbl ünique', extra: true },
      { id: 2, name: 'Apt' },
    ];
    expect(
      (
        await post({
          property: { id: 'H-9', name: 'PMS Hotel', mapping_data: { rooms_types: rooms, meals_types: [] } },
        })
      ).text,
    ).toBe('{"message":"Success"}');
    expect(await stored()).toEqual({
      ext_property_id: 'H-9',
      ext_property_name: 'PMS Hotel',
      mapping_data: { rooms_types: rooms, rates_types: [], services_types: [], meals_types: [], beds_types: [] },
    });
    await post({
      property: { id: 'H-10', name: 'Renamed', mapping_data: { beds_types: [{ id: 'K', name: 'King' }] } },
    });
    expect(await stored()).toMatchObject({
      ext_property_id: 'H-10',
      mapping_data: { rooms_types: [], beds_types: [{ id: 'K', name: 'King' }] },
    });
  });

  it.each([
    ['no property', {}],
    ['empty id', { property: { id: '', name: 'x', mapping_data: { rooms_types: [] } } }],
    ['no name', { property: { id: 'x', mapping_data: { rooms_types: [] } } }],
    ['empty mapping_data', { property: { id: 'x', name: 'x', mapping_data: {} } }],
    ['mapping_data not an object', { property: { id: 'x', name: 'x', mapping_data: 'rooms' } }],
  ])('refuses %s', async (_name, body) => {
    const res = await post(body);
    expect([res.status, res.text]).toEqual([400, '{"message":"Bad post request data!"}']);
  });
});
