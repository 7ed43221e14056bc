import { type AvailabilityValue, mergeAvailability, writeAvailability } from '../../actors/availability-writes.ts';
import { legacyStamp } from '../../actors/calendar-window.ts';
import { mergePrices, type PairTarget, type Prices, writeRates } from '../../actors/calendar-writes.ts';
import { DayRows } from '../../actors/day-rows.ts';
import { linkExtRoom } from '../../legacy/availability/rooms.ts';
import { randomSecret, sha256Hex } from '../core/auth/secrets.ts';
import { addDays, localToday, parseDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';

const SEEDED_DAYS = 60;

/** A booking the legacy demo asks for, in the bookings domain's own terms (its NewBooking accepts this shape). */
export interface LegacyDemoStay {
  id?: number;
  propertyId: number;
  channel: string;
  guest: { firstName: string; lastName: string; email: string; phone: string };
  checkinDate: string;
  checkoutDate: string;
  rooms: { roomTypeId: number; ratePlanId: number; adults: number }[];
  totalPrice: number;
}

/**
 * What the legacy demo needs from the demo being assembled. Bookings are taken through `book`, which the
 * demo assembly (server/demo/demo-steps.ts) wires to the bookings domain: legacy/ imports only core and
 * actors, so it asks for a booking instead of importing the intake.
 */
export interface LegacyDemoInput {
  deps: Deps;
  live: { id: number; name: string; currency: string; timezone: string };
  legacyApiKey: string;
  /** Takes the booking and answers its id. */
  book(stay: LegacyDemoStay): Promise<number>;
}

/**
 * The legacy facade's part of the demo (after structure and bookings): on the live property, which the
 * demo's `legacy_api_key` is active on, a booking module (its url_key is the `bm_code`), the PMS's posted
 * property data with its rooms linked (so `ext_room_id` works), 60 days of availability and per_room
 * prices (so getBookingOffers quotes), and two bookings, one old-generation (id below FIRST_GENERATED_BOOKING_ID, MD5
 * revision ids) and one current (a generated id). Answers what the demo shows under `demo.legacy`.
 */
export async function seedLegacyDemo({ deps, live, legacyApiKey, book }: LegacyDemoInput) {
  const db = deps.db;
  const [key] = await db.sql<{
    id: number;
  }>`select id from legacy_api_keys where key_hash = ${sha256Hex(legacyApiKey)}`;
  const rooms = await db.sql<{ id: number; partner_code: string | null; name: string }>`
    select id, partner_code, name from room_types where property_id = ${live.id} and deleted_at is null order by id`;
  const [plan] = await db.sql<{ id: number }>`
    select id from rate_plans where property_id = ${live.id} and parent_id is null and sell_type = 'per_room' and deleted_at is null
    order by id limit 1`;
  const first = rooms[0];
  if (!key || !first || !plan)
    throw new Error('legacy demo step needs the structure step (rooms and a per_room plan) first');

  const urlKey = `seaside-${randomSecret(6)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .toLowerCase()}`;
  const [module] = await db.sql<{ id: number; url_key: string }>`
    insert into booking_buttons (property_id, name, url_key, url_link, currency_code, lng_locale)
    values (${live.id}, 'Seaside booking engine', ${urlKey}, ${`https://book.example.com/${urlKey}`}, ${live.currency}, 'en-GB')
    returning id, url_key`;

  const extRoomIds = rooms.map((r, i) => ({ id: `PMS-${r.partner_code ?? i + 1}`, name: r.name, roomId: r.id }));
  const mapping = {
    rooms_types: extRoomIds.map(({ id, name }) => ({ id, name })),
    rates_types: [{ id: 'PMS-BAR', name: 'Best available rate' }],
    services_types: [],
    meals_types: [{ id: 'PMS-BB', name: 'Bed and breakfast' }],
    beds_types: [],
  };
  await db.sql`insert into legacy_pms_property_data (key_id, property_id, ext_property_id, ext_property_name, mapping_data)
    values (${key.id}, ${live.id}, 'PMS-HOTEL-1', ${live.name}, ${mapping})`;
  for (const ext of extRoomIds) await linkExtRoom(db, key.id, ext.id, ext.roomId);

  const today = localToday(live.timezone, deps.clock.now());
  const firstDay = parseDay(today) as number;
  const lastDay = firstDay + SEEDED_DAYS - 1;
  const availability = new DayRows<number, AvailabilityValue>(mergeAvailability);
  const rates = new DayRows<PairTarget, Prices>(mergePrices);
  for (const room of rooms) {
    availability.add(String(room.id), room.id, firstDay, lastDay, { free: 5, opened: true });
    rates.add(String(room.id), { ratePlanId: plan.id, roomTypeId: room.id }, firstDay, lastDay, { ROOM: 120 });
  }
  await deps.actors.run(live.id, async (tx) => {
    await writeAvailability(
      tx,
      availability.within(firstDay, lastDay).inside,
      await legacyStamp(tx, live, deps.clock.now()),
    );
    await writeRates(tx, rates.within(firstDay, lastDay).inside, deps.clock.now());
  });
  const roomIds = rooms.map((r) => r.id);

  const [old] = await db.sql<{ id: number }>`select nextval('legacy_demo_old_booking_ids') as id`;
  const stay = (id: number | undefined, offset: number, lastName: string) =>
    book({
      id,
      propertyId: live.id,
      channel: 'QDO',
      guest: { firstName: 'Maria', lastName, email: `${lastName.toLowerCase()}@example.com`, phone: '+351912345678' },
      checkinDate: addDays(today, offset),
      checkoutDate: addDays(today, offset + 2),
      rooms: [{ roomTypeId: first.id, ratePlanId: plan.id, adults: 2 }],
      totalPrice: 240,
    });
  const oldBooking = await stay(old?.id, 7, 'Almeida');
  const currentBooking = await stay(undefined, 14, 'Costa');

  return {
    api_key: legacyApiKey,
    property_id: live.id,
    room_ids: roomIds,
    ext_room_ids: extRoomIds.map(({ id, roomId }) => ({ ext_room_id: id, room_id: roomId })),
    bm_code: module?.url_key,
    bookings: [
      { booking_id: oldBooking, generation: 'old' as const },
      { booking_id: currentBooking, generation: 'current' as const },
    ],
  };
}
