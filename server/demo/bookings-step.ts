import {
  cancelBooking,
  confirmBooking,
  createBooking,
  modifyBooking,
  type NewBooking,
  recordNoShow,
} from '../bookings/intake.ts';
import { addDays, formatDay, todayIn } from '../core/days.ts';
import type { DemoContext } from './demo.ts';

interface DemoRoom {
  id: string;
}
interface DemoPlan {
  id: string;
  sell_type: string;
  room_type_id: string;
  parent_rate_plan_id: string | null;
}

/**
 * The bookings part of the demo: six bookings on the live property from six channels, so the feed, the
 * bookings list and health have something to show (created, modified, confirmed, cancelled and no-show
 * revisions). Their check-ins are before yesterday (guests in house or stays just past): the legacy
 * facade's getBookings only sends check-ins from yesterday on, so the legacy demo keeps exactly its own
 * two bookings. Runs after the legacy step, so the rooms it holds come off availability already offered.
 * Output under `demo.bookings`: `[{external_booking_id, source_channel, status}]`.
 */
export async function bookingsDemoStep(ctx: DemoContext): Promise<void> {
  const { deps, live, demo } = ctx;
  const property = demo.properties[0] as { room_types?: DemoRoom[]; rate_plans?: DemoPlan[] } | undefined;
  const rooms = property?.room_types ?? [];
  const planFor = (room: DemoRoom | undefined) =>
    property?.rate_plans?.find(
      (p) => p.room_type_id === room?.id && p.sell_type === 'per_room' && !p.parent_rate_plan_id,
    )?.id;
  const [double, apartment] = rooms;
  if (!double || !apartment || !planFor(double) || !planFor(apartment))
    throw new Error('bookings demo step needs the structure step first');

  const today = formatDay(todayIn(live.timezone, deps.clock.now()));
  const stay = (
    channel: string,
    room: DemoRoom,
    from: number,
    to: number,
    guest: [string, string],
    amount: number,
    extra: Partial<NewBooking> = {},
  ) =>
    createBooking(deps, {
      propertyId: live.id,
      channel,
      guest: {
        firstName: guest[0],
        lastName: guest[1],
        email: `${guest[0].toLowerCase()}@example.com`,
        phone: '+351 912 000 111',
      },
      checkinDate: addDays(today, from),
      checkoutDate: addDays(today, to),
      rooms: [{ roomTypeId: room.id, ratePlanId: planFor(room) as string, adults: 2 }],
      totalPrice: amount,
      ...extra,
    });

  const inHouse = await stay('QDO', apartment, -3, 2, ['Lena', 'Fischer'], 900);
  const modified = await stay('BDC', double, -2, 1, ['Tom', 'Baker'], 360, { channelReference: `BDC-${live.id}-1001` });
  await modifyBooking(deps, modified.booking, { totalPrice: 330, guest: { phone: '+44 7700 900123' } });
  const tentative = await stay('EXP', double, -5, -3, ['Yuki', 'Sato'], 240, { tentative: true });
  await confirmBooking(deps, tentative.booking);
  const agency = await stay('QDA', apartment, -4, 3, ['Marco', 'Rossi'], 1200, {
    agency: { name: 'Iberia Tours', reference: 'IT-5512' },
  });
  const cancelled = await stay('ABB', double, -2, 5, ['Sara', 'Lopez'], 700);
  await cancelBooking(deps, cancelled.booking, { cancelledBy: 'guest', reasonCode: 'change_of_plans', feeCharged: 70 });
  const noShow = await stay('GHA', double, -6, -5, ['Ivan', 'Petrov'], 120);
  await recordNoShow(deps, noShow.booking);

  const ids = [inHouse, modified, tentative, agency, cancelled, noShow].map((r) => r.booking.id);
  demo.bookings = await deps.db.sql<{ external_booking_id: string; source_channel: string; status: string }>`
    select external_booking_id, source_channel, status from bookings where id = any(${ids}::bigint[]) order by id`;
}
