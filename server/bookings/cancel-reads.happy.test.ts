import { beforeAll, describe, expect, it } from 'bun:test';
import { interceptStatements } from '../testing/intercept-statements.ts';
import { appOver, bookingTest, opsBooking } from './test-fixtures.ts';

/**
 * Cancel and no-show read the booking's room lines once: the held rooms they release, the revision snapshot
 * and the answer all come from that one read (the snapshot is built once too).
 */
let send: ReturnType<typeof appOver>;
let roomReads = 0;

const { t, fx } = bookingTest();
beforeAll(async () => {
  send = appOver(
    t,
    interceptStatements(t.deps.db, (text) => {
      if (/\bfrom booking_rooms\b/.test(text)) roomReads++;
    }),
  );
});

async function readsOf(action: 'cancel' | 'no_show') {
  const booking = await opsBooking(t, fx);
  roomReads = 0;
  const res = await send(
    'POST',
    `/v1/qc/properties/${fx.property}/bookings/${booking.external_booking_id}/${action}`,
    fx.token,
  );
  const body = (await res.json()) as { data: { status: string; rooms: unknown[] } };
  const [revision] = await t.deps.db.sql<{ payload: { rooms: unknown[] } }>`
    select payload from booking_revisions where booking_id = ${booking.id} order by id desc limit 1`;
  return { status: res.status, reads: roomReads, answered: body.data, snapshotRooms: revision?.payload.rooms.length };
}

describe('booking rooms are read once', () => {
  it('by cancel, whose answer and revision still carry the rooms', async () => {
    const result = await readsOf('cancel');
    expect(result).toMatchObject({ status: 200, reads: 1, snapshotRooms: 1, answered: { status: 'cancelled' } });
    expect(result.answered.rooms).toHaveLength(1);
  });

  it('by no-show', async () => {
    const result = await readsOf('no_show');
    expect(result).toMatchObject({ status: 200, reads: 1, snapshotRooms: 1, answered: { status: 'no_show' } });
  });
});
