import type { Db } from '../server/core/db/db.ts';
import { runSpans } from './calendar-writes.ts';
import type { DayRun } from './day-rows.ts';

/**
 * The one writer of the `availability` table: partner pushes, legacy updateAvailability, the demo's seeding
 * (writeAvailability) and bookings' held rooms (adjustBooked) all write it through here, inside the
 * property's actor turn. Its SQL follows the shape of actors/calendar-writes.ts: an upsert that rewrites
 * only changed day-rows, the batch sent as runs of days.
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

/** Writes the runs; answers how many day-rows it changed (the rest were unchanged). */
export async function writeAvailability(
  tx: Db,
  runs: readonly DayRun<number, AvailabilityValue>[],
  setAt: Date,
): Promise<number> {
  // A day-row that leaves a column unset must keep the stored value, and the conflict clause sees only the
  // proposed row (whose offered and opened cannot be null). So the runs go in groups by which columns they
  // set, one statement each: a partner push is one group, a legacy batch at most three.
  const groups = new Map<string, DayRun<number, AvailabilityValue>[]>();
  for (const run of runs) {
    const shape = `${run.value.free !== null}:${run.value.opened !== null}`;
    const group = groups.get(shape);
    if (group) group.push(run);
    else groups.set(shape, [run]);
  }
  let written = 0;
  for (const group of groups.values()) written += await writeGroup(tx, group, setAt);
  return written;
}

/** One statement in the shape of actors/calendar-writes.ts, for runs that all set the same columns. */
async function writeGroup(tx: Db, runs: readonly DayRun<number, AvailabilityValue>[], setAt: Date): Promise<number> {
  const [sample] = runs;
  if (!sample) return 0;
  const setsFree = sample.value.free !== null;
  const setsOpened = sample.value.opened !== null;
  const roomTypeIds = runs.map((r) => r.target);
  const { firsts, lengths } = runSpans(runs);
  // Booleans travel as 1/0: postgres.js infers a boolean array's type from its first element as scalar bool.
  const opened = setsOpened ? runs.map((r) => (r.value.opened ? 1 : 0)) : null;
  const free = setsFree ? runs.map((r) => r.value.free) : null;
  // A new day gets 0 free rooms and is open unless the run says otherwise.
  return tx.affected`
    insert into availability as a (property_id, room_type_id, date, offered, opened, set_at)
    select (select property_id from room_types where id = ${roomTypeIds[0]}), u.room_type_id, u.first + g.day, coalesce(u.free, 0), coalesce(u.opened::boolean, true), ${setAt}
    from unnest(${roomTypeIds}::bigint[], ${firsts}::date[], ${lengths}::int[], ${free}::int[], ${opened}::int[])
      as u(room_type_id, first, days, free, opened)
    cross join lateral generate_series(0, u.days - 1) as g(day)
    on conflict (property_id, room_type_id, date) do update set
      offered = case when ${setsFree}::boolean then excluded.offered + a.booked else a.offered end,
      opened = case when ${setsOpened}::boolean then excluded.opened else a.opened end,
      set_at = excluded.set_at
      where (${setsFree}::boolean and excluded.offered is distinct from a.offered - a.booked)
        or (${setsOpened}::boolean and excluded.opened is distinct from a.opened)`;
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
  // The key leads with property_id: each change takes its room type's property, so both statements find
  // their rows through the key.
  await tx.sql`
    insert into availability (property_id, room_type_id, date, offered, booked)
    select rt.property_id, d.room_type_id, d.date, 0, 0
    from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${deltas}::int[]) as d(room_type_id, date, delta)
    join room_types rt on rt.id = d.room_type_id
    where d.delta > 0
    on conflict (property_id, room_type_id, date) do nothing`;
  await tx.sql`
    update availability a set booked = greatest(a.booked + d.delta, 0)
    from unnest(${roomTypeIds}::bigint[], ${dates}::date[], ${deltas}::int[]) as d(room_type_id, date, delta)
    join room_types rt on rt.id = d.room_type_id
    where a.property_id = rt.property_id and a.room_type_id = d.room_type_id and a.date = d.date`;
}
