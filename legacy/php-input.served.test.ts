import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../server/core/clock.ts';
import { requestFrom } from '../server/testing/from-address.ts';
import { startServedTestApp } from '../server/testing/harness.ts';
import { type LegacyFixture, legacyFixture, NOW } from './legacy-test-fixture.ts';

/**
 * What reaches the facade over a real socket, where it differs from a Request built in process (`app.handle`
 * takes a GET with a body; Bun's HTTP server does not hand one over).
 */
let f: LegacyFixture;
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const served = await startServedTestApp({ clock: new ManualClock(NOW) });
  ({ baseUrl, stop } = served);
  f = await legacyFixture(served.t);
});
afterAll(() => stop());

function offers(method: string) {
  const body = JSON.stringify({
    bm_code: f.bmCode,
    checkin_date: '2030-06-20',
    checkout_date: '2030-06-21',
    guests: { adults: 1 },
  });
  // Content-Length said outright: node:http sends a GET's body unframed otherwise, which no server reads as one.
  return requestFrom(baseUrl, '127.0.0.1', method, `/api/pms/v1/property/getBookingOffers?api_key=${f.key}`, {
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
    body,
  });
}

describe('a legacy request body over HTTP', () => {
  it('is read with POST', async () => {
    const res = await offers('POST');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).data.offers.length).toBeGreaterThan(0);
  });

  // A known difference (README, Legacy PMS v1 facade, Input): PHP read php://input for any verb; Bun's server
  // gives a GET no body (request.body is null, the bytes are skipped), so the method sees none and answers its
  // "bad request" message. A PMS sends GET parameters in the query string. Fails when Bun starts passing it on.
  it('is not seen with GET: Bun drops it before the facade, so the fields must come in the query', async () => {
    const res = await offers('GET');
    expect([res.status, res.text]).toEqual([400, '{"message":"Bad request data!"}']);
  });
});

describe('a legacy query string over HTTP', () => {
  it('decodes each well-formed escape of a value holding a stray percent sign, as PHP did', async () => {
    // PHP's urldecode read `Sea%20View%` as `Sea View%`; decoding the value whole refused it and kept it as sent.
    const query = 'bm_code=Sea%20View%&checkin_date=2030-06-20&checkout_date=2030-06-21&guests[adults]=1';
    const res = await requestFrom(
      baseUrl,
      '127.0.0.1',
      'GET',
      `/api/pms/v1/property/getBookingOffers?api_key=${f.key}&${query}`,
    );
    expect([res.status, res.text]).toEqual([404, `{"message":"Booking module 'Sea View%' not found or inactive."}`]);
  });
});

describe('a legacy JSON body that json_decode refused', () => {
  const property = (name: string) =>
    `{"property":{"id":"PMS-1","name":"${name}","mapping_data":{"rooms_types":[{"id":"R1","name":"R1"}]}}}`;
  async function postData(bytes: Uint8Array) {
    const res = await fetch(`${baseUrl}/api/pms/v1/property/postExternalPropertyData?api_key=${f.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bytes,
    });
    return [res.status, await res.text()];
  }

  it('is no input when it is not UTF-8 (a Latin-1 é) or starts with a byte-order mark, as for the legacy service', async () => {
    const latin1 = new Uint8Array(Buffer.from(property('Caf\xe9'), 'latin1'));
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(property('Cafe'))]);
    for (const bytes of [latin1, bom])
      expect(await postData(bytes)).toEqual([400, '{"message":"Bad post request data!"}']);
    // The same body in UTF-8 is taken.
    expect(await postData(new Uint8Array(Buffer.from(property('Café'))))).toEqual([200, '{"message":"Success"}']);
  });
});
