import { formatDay } from '../server/core/days.ts';
import type { Db } from '../server/core/db/db.ts';
import { sparse } from './calendar-writes.ts';
import type { DayRow } from './day-rows.ts';

/**
 * The one writer of the `availability` table: partner pushes, legacy updateAvailability, the demo's seeding
 * (writeAvailability) and bookings' held rooms (adjustBooked) all write it through here, inside the
 * property's actor turn. Its SQL follows the shape of actors/calendar-writes.ts: one statement per call,
 * the day-rows as parallel arrays, unchanged day-rows only read.
 */

/**
 * What one write sets on a day; null keeps the stored value (a day with no row yet gets 0 free rooms and
 * is open). `free` is the partner's free rooms, stored as offered = free + the service's own booked count.
 */
export interface AvailabilityValue {
  free: number | null;
  /** The legacy open/closed sale flag. */
  opened: boolean | null;
}

/** Two writes of one day in one batch: the later one's values win, field by field. */
export function mergeAvailability(earlier: AvailabilityValue, later: AvailabilityValue): AvailabilityValue {
  return { free: later.free ?? earlier.free, opened: later.opened ?? earlier.opened };
}

/** Writes the day-rows; answers how many it changed (the rest were unchanged). */
export async function writeAvailability(
  tx: Db,
  days: readonly DayRow<number, AvailabilityValue>[],
  setAt: Date,
): Promise<number> {
  if (!days.length) return 0;
  const roomTypeIds = days.map((d) => d.target);
  const dates = days.map((d) => formatDay(d.day));
  // Booleans travel as 1/0: postgres.js infers a boolean array's type from its first element as scalar bool.
  const opened = sparse(days.map((d) => (d.value.opened === null ? null : d.value.opened ? 1 : 0)));
  const free = sparse(days.map((d) => d.value.free));
  // The insert's conflict branch cannot happen inside the actor turn (nothing else writes these rows in
  // between); should a writer ever bypass the actor, its row is kept rather than overwritten with a guess.
  const [row] = await tx.sql<{ written: number }>`
    with incoming as (
      select i.room_type_id, i.date, i.free, i.opened::boolean as opened, a.room_type_id is not null as stored,
        (i.free is not null and i.free is distinct from a.offered - a.booked)
          or (i.opened is not null and i.opened::boolean is distinct from a.opened) as differs
      from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${free}::int[], ${opened}::int[])
        as i(room_type_id, date, free, opened)
      left join availability a on a.room_type_id = i.room_type_id and a.date = i.date
    ), updated as (
      update availability a set
        offered = coalesce(i.free + a.booked, a.offered),
        opened = coalesce(i.opened, a.opened),
        set_at = ${setAt}
      from incoming i
      where a.room_type_id = i.room_type_id and a.date = i.date and i.differs
      returning 1
    ), inserted as (
      insert into availability (room_type_id, date, offered, opened, set_at)
      select room_type_id, date, coalesce(free, 0), coalesce(opened, true), ${setAt} from incoming where not stored
      on conflict (room_type_id, date) do nothing
      returning 1
    )
    select (select count(*) from updated) + (select count(*) from inserted) as written`;
  return row?.written ?? 0;
}

/** A change of the rooms bookings hold on one room type and night. */
export interface BookedChange {
  roomTypeId: number;
  date: string;
  delta: number;
}

/**
 * Moves `booked` by each change; `offered` (the partner's) is never touched, so free rooms move by exactly
 * the change. A night without a row gets one with offered 0 (nothing for sale); booked never goes below 0.
 */
export async function adjustBooked(tx: Db, changes: readonly BookedChange[]): Promise<void> {
  const moving = changes.filter((c) => c.delta !== 0);
  if (!moving.length) return;
  const roomTypeIds = moving.map((c) => c.roomTypeId);
  const dates = moving.map((c) => c.date);
  const deltas = moving.map((c) => c.delta);
  await tx.sql`
    insert into availability (room_type_id, date, offered, booked)
    select d.room_type_id, d.date, 0, 0
    from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${deltas}::int[]) as d(room_type_id, date, delta)
    where d.delta > 0
    on conflict (room_type_id, date) do nothing`;
  await tx.sql`
    update availability a set booked = greatest(a.booked + d.delta, 0)
    from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${deltas}::int[]) as d(room_type_id, date, delta)
    where a.room_type_id = d.room_type_id and a.date = d.date`;
}
