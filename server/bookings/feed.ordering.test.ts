import { describe, expect, it } from 'bun:test';
import { EMBEDDED, testAppPerFile } from '../testing/harness.ts';
import { appendRevision } from './revisions.ts';
import type { BookingRow } from './snapshot.ts';
import { bookingFixture, opsBooking } from './test-fixtures.ts';

const t = testAppPerFile();

describe('revision ids commit in order per customer', () => {
  // Needs two connections: embedded PGlite has one, so an open transaction there blocks everything.
  it.skipIf(EMBEDDED)(
    'a revision appended while an earlier one is still uncommitted waits, so since=<cursor> never skips the earlier one',
    async () => {
      const fx = await bookingFixture(t);
      const live = await opsBooking(t, fx);
      const [booking] = await t.deps.db.sql<BookingRow>`select * from bookings where id = ${live.id}`;
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let earlier = 0;
      const appended = new Promise<void>((resolve) => {
        void t.deps.db.tx(async (tx) => {
          earlier = await appendRevision(t.deps, tx, booking as BookingRow, 'modified', fx.demo.customer_id);
          resolve();
          await gate;
        });
      });
      await appended;
      // A change on the other property (another actor, same customer) takes its id only after that commit.
      let later: number | undefined;
      const other = t
        .ops('POST', '/ops/bookings', {
          property_id: fx.shadow,
          channel: 'QDB',
          guest: {},
          checkin_date: '2026-12-01',
          checkout_date: '2026-12-02',
          rooms: [{ room_type_id: fx.shadowRoom, rate_plan_id: fx.shadowPlan }],
          total_price: { amount: 90 },
        })
        .then((res) => {
          later = res.body.data.revision_id;
        });
      await Bun.sleep(150);
      expect(later).toBeUndefined();
      const cursor = (
        await t.request('GET', '/v1/qc/booking_revisions/feed', { token: fx.token, query: { limit: 500 } })
      ).body.data.next_cursor;
      expect(cursor).toBeLessThan(earlier);
      release();
      await other;
      expect(later).toBeGreaterThan(earlier);
      const page = await t.request('GET', '/v1/qc/booking_revisions/feed', {
        token: fx.token,
        query: { since: cursor, limit: 500 },
      });
      expect(page.body.data.booking_revisions.map((r: { id: number }) => r.id)).toEqual([earlier, later]);
    },
  );
});
