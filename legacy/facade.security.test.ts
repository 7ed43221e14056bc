import { describe, expect, it } from 'bun:test';
import { legacyFixture, legacyTest } from './legacy-test-fixture.ts';

const { t, f } = legacyTest();

const ALL_METHODS = [
  'availability/updateAvailability',
  'availability/getAvailability',
  'booking/getBookings',
  'booking/ackBooking',
  'booking/postRoomAssignment',
  'property/getRoomsDetails',
  'property/getPropertySettings',
  'property/postExternalPropertyData',
  'property/getBookingOffers',
];

describe('legacy api key', () => {
  it.each(ALL_METHODS)('guards %s with the three 401 messages', async (path) => {
    const inactive = await f.anotherKey(false);
    expect((await f.call(path, { key: null })).text).toBe('{"message":"Wrong api key! *"}');
    expect((await f.call(path, { key: '' })).text).toBe('{"message":"Wrong api key! *"}');
    expect((await f.call(path, { key: `${f.key}x` })).text).toBe('{"message":"Wrong api key"}');
    const res = await f.call(path, { key: inactive.key });
    expect([res.status, res.text]).toEqual([401, '{"message":"Wrong api key! **"}']);
  });

  it("answers a key of a property in a paused group, or of one now another customer's, as an inactive key, and serves it again once allowed", async () => {
    const db = t.deps.db;
    const call = async () => {
      const res = await f.call('property/getPropertySettings', { query: { names: 'property' } });
      return [res.status, res.status === 401 ? res.text : 'served'];
    };
    const inactive = [401, '{"message":"Wrong api key! **"}'];
    expect(await call()).toEqual([200, 'served']);

    const [customer] = await db.sql<{
      customer_id: number;
    }>`select customer_id from properties where id = ${f.propertyId}`;
    const [group] = await db.sql<{ id: number }>`
      insert into property_groups (customer_id, name, paused) values (${customer?.customer_id}, 'Paused', true) returning id`;
    await db.sql`update properties set group_id = ${group?.id} where id = ${f.propertyId}`;
    expect(await call()).toEqual(inactive);
    await db.sql`update property_groups set paused = false where id = ${group?.id}`;
    expect(await call()).toEqual([200, 'served']);
    await db.sql`update properties set group_id = null where id = ${f.propertyId}`;

    const stranger = await legacyFixture(t);
    const [theirs] = await db.sql<{
      customer_id: number;
    }>`select customer_id from properties where id = ${stranger.propertyId}`;
    await db.sql`update properties set customer_id = ${theirs?.customer_id} where id = ${f.propertyId}`;
    try {
      expect(await call()).toEqual(inactive);
    } finally {
      await db.sql`update properties set customer_id = ${customer?.customer_id} where id = ${f.propertyId}`;
    }
    expect(await call()).toEqual([200, 'served']);
  });

  it("only sees its own property: another customer's bookings never show", async () => {
    const other = await legacyFixture(t);
    const theirs = await other.book();
    const res = await f.call('booking/getBookings', { query: { booking_id: theirs } });
    expect(res.text).toBe('{"data":[]}');
    const ack = await f.call('booking/ackBooking', { body: { booking_id: theirs, revision_id: 'x' } });
    expect(ack.text).toBe('{"message":"Missing booking!"}');
  });

  it('coexists with the partner OAuth credentials on the same property', async () => {
    const token = await t.oauthToken(f.demo.client.client_id, f.demo.client.client_secret);
    const modern = await t.request('GET', `/v1/qc/properties/${f.demo.properties[0]?.id}`, { token });
    expect(modern.status).toBe(200);
    expect((await f.call('property/getPropertySettings', { query: { names: 'property' } })).status).toBe(200);
  });
});

describe('legacy dispatch and bytes', () => {
  it('resolves class and method names case-insensitively, as PHP did, and ignores the HTTP verb', async () => {
    const res = await f.call('Property/GETPROPERTYSETTINGS', { query: { names: 'bed_types' } });
    expect(res.status).toBe(200);
    const verb = await f.call('availability/updateAvailability', { method: 'GET' });
    expect(verb.text).toBe(
      `{"message":"Bad request data! Wrong format of the post structure (missing 'values' structure - check documentation)!"}`,
    );
  });

  it('answers the bare prefix and unknown paths with the endpoint messages, never the modern envelope', async () => {
    expect((await t.request('GET', '/api/pms/v1')).text).toBe('{"message":"Missing endpoint class: "}');
    expect((await t.request('GET', '/api/pms/v1/booking')).text).toBe('{"message":"Missing endpoint method: "}');
    const res = await t.request('POST', '/api/pms/v1/avail%C3%A1bility/x');
    expect([res.status, res.text]).toEqual([404, '{"message":"Missing endpoint class: avail\\u00e1bility"}']);
  });

  it('sends only Content-Type and nosniff on every answer: no request id, rate-limit or support headers from the modern pipeline', async () => {
    const answers = [
      await f.call('property/getPropertySettings'),
      await f.call('booking/getBookings', { key: null }),
      await f.call('nothing/here'),
      await f.call('availability/updateAvailability', { raw: '{not json' }),
    ];
    for (const res of answers)
      expect([...res.headers.keys()].sort()).toEqual(['content-type', 'x-content-type-options']);
  });

  it('reads a malformed or non-JSON body as no input, like json_decode', async () => {
    const res = await f.call('booking/ackBooking', {
      raw: 'booking_id=1&revision_id=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.text).toBe('{"message":"Bad request data! (booking_id or revision_id missing)"}');
  });

  it('never lets a request reach Object.prototype: __proto__[x] in a query or a form is a key like any other', async () => {
    const res = await f.call('booking/ackBooking', {
      query: { '__proto__[polluted]': 'yes' },
      raw: '__proto__[tainted]=1&booking_id=1&revision_id=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.text).toBe('{"message":"Missing booking!"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).tainted).toBeUndefined();
  });

  it('reads a form-encoded body like $_POST', async () => {
    const res = await f.call('booking/ackBooking', {
      raw: 'booking_id=1&revision_id=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.text).toBe('{"message":"Missing booking!"}');
  });

  it('reads a multipart/form-data body like $_POST, answering byte for byte as the same fields form-encoded', async () => {
    const fields: [string, string][] = [
      ['booking_id', '100000'],
      ['booking_item_id', '1'],
      ['room_number', '202'],
      ['property[id]', 'H-1'],
      ['property[name]', 'PMS Hotel'],
      ['property[mapping_data][rooms_types][0][id]', 'R1'],
    ];
    const multipart = new FormData();
    for (const [name, value] of fields) multipart.append(name, value);
    // A file part goes to PHP's $_FILES, never to $_POST.
    multipart.append('booking_id', new File(['1'], 'id.txt'));
    const asMultipart = new Response(multipart);
    // The header first: Bun's Response forgets the boundary it made up once its body is read.
    const headers = { 'content-type': asMultipart.headers.get('content-type') as string };
    const multipartBody = { raw: await asMultipart.text(), headers };
    const formBody = {
      raw: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
    for (const path of ['booking/postRoomAssignment', 'property/postExternalPropertyData']) {
      const form = await f.call(path, formBody);
      const res = await f.call(path, multipartBody);
      expect([path, res.status, res.text]).toEqual([path, form.status, form.text]);
    }
    expect((await f.call('booking/postRoomAssignment', multipartBody)).text).toBe('{"message":"Missing booking!"}');
    expect((await f.call('property/postExternalPropertyData', multipartBody)).text).toBe('{"message":"Success"}');
    const [stored] = await t.deps.db.sql<{ ext_property_name: string }>`
      select ext_property_name from legacy_pms_property_data where key_id = ${f.keyId}`;
    expect(stored?.ext_property_name).toBe('PMS Hotel');
    const malformed = await f.call('booking/postRoomAssignment', {
      raw: 'booking_id=100000',
      headers: { 'content-type': 'multipart/form-data; boundary=none' },
    });
    expect([malformed.status, malformed.text]).toEqual([
      400,
      '{"message":"Bad request data! (booking_id, booking_item_id or room_number missing)"}',
    ]);
  });
});
