import { describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();

describe('POST /ops/demo, bookings part', () => {
  it('creates bookings on the live property from several channels, visible in the feed and the list of the demo client', async () => {
    const demo = await t.demo();
    const bookings = demo.bookings as { external_booking_id: string; source_channel: string; status: string }[];
    expect(bookings.map((b) => b.source_channel)).toEqual(['QDO', 'BDC', 'EXP', 'QDA', 'ABB', 'GHA']);
    expect(bookings.map((b) => b.status)).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
      'confirmed',
      'cancelled',
      'no_show',
    ]);
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const feed = await t.request('GET', '/v1/qc/booking_revisions/feed', { token, query: { limit: 500 } });
    const types = (
      feed.body.data.booking_revisions as { revision_type: string; payload: { external_booking_id: string } }[]
    )
      .filter((r) => bookings.some((b) => b.external_booking_id === r.payload.external_booking_id))
      .map((r) => r.revision_type);
    expect(types).toEqual([
      'created',
      'created',
      'modified',
      'created',
      'confirmed',
      'created',
      'created',
      'cancelled',
      'created',
      'no_show',
    ]);
    const live = demo.properties[0]?.external_property_id;
    const list = await t.request('GET', `/v1/qc/properties/${live}/bookings`, { token, query: { limit: 100 } });
    const listed = (list.body.data.bookings as { external_booking_id: string }[]).map((b) => b.external_booking_id);
    expect(listed).toEqual(expect.arrayContaining(bookings.map((b) => b.external_booking_id)));
  });
});
