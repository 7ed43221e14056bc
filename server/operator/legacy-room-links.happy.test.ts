import { describe, expect, it } from 'bun:test';
import { type LegacyFixture, legacyFixture, legacyTestAppPerFile } from '../../legacy/legacy-test-fixture.ts';

const t = legacyTestAppPerFile();

interface Linked {
  f: LegacyFixture;
  session: string;
  rooms: { id: number; external_id: string; partner_code: string }[];
}

/** A fresh legacy fixture whose PMS declared two room type ids that no room is linked to yet. */
async function declared(): Promise<Linked> {
  const f = await legacyFixture(t);
  const posted = await f.call('property/postExternalPropertyData', {
    body: {
      property: {
        id: 'H1',
        name: 'Hotel',
        mapping_data: {
          rooms_types: [
            { id: 'R-10', name: 'PMS double' },
            { id: 'R-20', name: 'PMS apartment' },
          ],
        },
      },
    },
  });
  expect(posted.text).toBe('{"message":"Success"}');
  const session = await t.dashboardSession(f.customerId);
  const rooms = await t.deps.db.sql<{ id: number; external_id: string; partner_code: string }>`
    select id, external_id::text, partner_code from room_types where property_id = ${f.propertyId} order by id`;
  return { f, session, rooms: [...rooms] };
}

const pushByExtId = (f: LegacyFixture, extRoomId: string, qty: number) =>
  f.call('availability/updateAvailability', {
    body: { values: [{ ext_room_id: extRoomId, date: '2030-07-20', qty }] },
  });

async function offered(roomId: number): Promise<number | undefined> {
  const [row] = await t.deps.db.sql<{ offered: number }>`
    select offered from availability where room_type_id = ${roomId} and date = '2030-07-20'`;
  return row?.offered;
}

describe('legacy room links through the dashboard and the operator API', () => {
  it('makes legacy updateAvailability with ext_room_id work once the hotelier linked it in the dashboard', async () => {
    const { f, session, rooms } = await declared();
    const [double] = rooms;
    if (!double) throw new Error('no rooms');
    const before = await pushByExtId(f, 'R-10', 3);
    expect(before.status).toBe(404);
    expect(before.text).toContain("Can't find room id for the given ext room id");

    const linked = await t.request('PUT', `/api/v1/pem-systems/qc/properties/${f.propertyExt}/legacy-room-links`, {
      token: session,
      body: { links: [{ ext_room_id: 'R-10', room_type_id: double.external_id }] },
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data).toEqual({
      property_id: f.propertyExt,
      links: [
        { pms_name: expect.any(String), ext_room_id: 'R-10', name: 'PMS double', room_type_id: double.external_id },
        { pms_name: expect.any(String), ext_room_id: 'R-20', name: 'PMS apartment', room_type_id: null },
      ],
    });

    expect((await pushByExtId(f, 'R-10', 3)).text).toBe('{"message":"Success"}');
    expect(await offered(double.id)).toBe(3);
    const read = await f.call('availability/getAvailability', {
      query: { ext_room_id: 'R-10', date_from: '2030-07-20', date_to: '2030-07-20' },
    });
    expect(read.status).toBe(200);
  });

  it('links through the operator API by partner code, and a null room type unlinks', async () => {
    const { f, rooms } = await declared();
    const apartment = rooms[1];
    if (!apartment) throw new Error('no second room');
    const path = `/ops/properties/${f.propertyExt}/legacy-room-links`;
    const linked = await t.ops('PUT', path, { links: [{ ext_room_id: 'R-20', room_type_id: apartment.partner_code }] });
    expect(linked.status).toBe(200);
    expect((await pushByExtId(f, 'R-20', 5)).text).toBe('{"message":"Success"}');
    expect(await offered(apartment.id)).toBe(5);
    const shown = await t.ops('GET', path);
    expect(shown.body.data).toEqual(linked.body.data);

    const unlinked = await t.ops('PUT', path, { links: [{ ext_room_id: 'R-20', room_type_id: null }] });
    expect(unlinked.body.data.links.find((l: { ext_room_id: string }) => l.ext_room_id === 'R-20').room_type_id).toBe(
      null,
    );
    expect((await pushByExtId(f, 'R-20', 6)).status).toBe(404);
  });

  it('refuses an id the PMS never declared and a room of another property, writing nothing', async () => {
    const { f, session, rooms } = await declared();
    const other = await legacyFixture(t);
    const [otherRoom] = await t.deps.db.sql<{ external_id: string }>`
      select external_id::text from room_types where property_id = ${other.propertyId} limit 1`;
    const res = await t.request('PUT', `/api/v1/pem-systems/qc/properties/${f.propertyExt}/legacy-room-links`, {
      token: session,
      body: {
        links: [
          { ext_room_id: 'R-10', room_type_id: rooms[0]?.external_id ?? null },
          { ext_room_id: 'NEVER-DECLARED', room_type_id: rooms[0]?.external_id ?? null },
          { ext_room_id: 'R-20', room_type_id: otherRoom?.external_id ?? null },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'links.1.ext_room_id': ['customer.legacy_room_link.messages.undeclared'],
      'links.2.room_type_id': ['customer.legacy_room_link.messages.unknown_room_type'],
    });
    expect((await pushByExtId(f, 'R-10', 2)).status).toBe(404);
  });

  it("answers 404 for another customer's property in the dashboard and 401 without a session", async () => {
    const { f, session } = await declared();
    const other = await legacyFixture(t);
    const path = (ext: string) => `/api/v1/pem-systems/qc/properties/${ext}/legacy-room-links`;
    const foreign = await t.request('GET', path(other.propertyExt), { token: session });
    expect(foreign.status).toBe(404);
    expect((await t.request('GET', path(f.propertyExt))).status).toBe(401);
    expect(
      (await t.request('PUT', `/ops/properties/${f.propertyExt}/legacy-room-links`, { body: { links: [] } })).status,
    ).toBe(401);
  });
});
