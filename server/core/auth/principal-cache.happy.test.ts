import { beforeAll, describe, expect, it } from 'bun:test';
import { appOver, bookingTest, interceptStatements } from '../../bookings/test-fixtures.ts';

/**
 * Through HTTP: a write answers once its own changes have reached the principal cache, and leaves the cached
 * principals it did not change (it used to drop them all, so every token's next request reloaded its client
 * row and allow-list: 4 ms for an account of 9000 properties, bench:volume).
 */
const { t, fx } = bookingTest();
let send: ReturnType<typeof appOver>;
let clientReads = 0;

beforeAll(() => {
  send = appOver(
    t,
    interceptStatements(t.deps.db, (text) => {
      if (/\bfrom api_clients c\b/.test(text)) clientReads++;
    }),
  );
});

const listBookings = async () => {
  const res = await send('GET', `/v1/qc/properties/${fx.property}/bookings`, fx.token);
  expect(res.status).toBe(200);
};

describe('principal cache through HTTP', () => {
  it('a write answers without dropping the cached principal it did not change', async () => {
    // Until the cache's LISTEN is in place every request reads the client row: ask until one does not.
    for (let i = 0; i < 50; i++) {
      const before = clientReads;
      await listBookings();
      if (clientReads === before) break;
      await Bun.sleep(20);
    }
    const cached = clientReads;
    await listBookings();
    expect(clientReads).toBe(cached);

    const push = await send('POST', `/v1/qc/properties/${fx.property}/inventory/availability`, fx.token, {
      values: [{ room_type_id: fx.rooms[0]?.id, date_from: '2026-07-01', date_to: '2026-07-03', availability: 2 }],
    });
    expect(push.status).toBe(202);
    await listBookings();

    expect(clientReads).toBe(cached);
  });
});
