import type { Db } from '../core/db/db.ts';
import { findChild } from '../core/resolve.ts';
import type { BookedLine } from './holdings.ts';
import { BookingRefused, type CREATE_FAILED, type MODIFY_FAILED } from './refusal.ts';
import type { BookingRoomRow } from './snapshot.ts';

/**
 * One line of a booking's rooms as callers give it: room type and rate plan by internal id (number) or by
 * external id / partner code (string, resolved like every URL segment: external id first).
 */
export interface RoomLineInput {
  roomTypeId: number | string;
  ratePlanId: number | string;
  qty?: number;
  adults?: number;
  children?: number;
  /** This line's share of the total; lines without one split the rest of the total evenly. */
  price?: number;
}

/** A room line as the APIs send it (snake_case), as the booking functions take it. */
export function lineInputOf(r: {
  room_type_id: number | string;
  rate_plan_id: number | string;
  qty?: number;
  adults?: number;
  children?: number;
  price?: number;
}): RoomLineInput {
  return {
    roomTypeId: r.room_type_id,
    ratePlanId: r.rate_plan_id,
    qty: r.qty,
    adults: r.adults,
    children: r.children,
    price: r.price,
  };
}

export interface ResolvedLine {
  roomTypeId: number;
  ratePlanId: number;
  qty: number;
  adults: number;
  children: number;
  price: number;
}

/**
 * Resolves every line to a live (rate plan x room type) pair of this property; anything else refuses the
 * whole change with `unknown_room_or_rate` (a booking cannot hold rooms that do not exist).
 */
export async function resolveLines(
  tx: Db,
  propertyId: number,
  inputs: readonly RoomLineInput[],
  totalPrice: number,
  key: typeof CREATE_FAILED | typeof MODIFY_FAILED,
): Promise<ResolvedLine[]> {
  if (!inputs.length) throw new BookingRefused('no_rooms', key);
  const lines: ResolvedLine[] = [];
  for (const input of inputs) {
    const qty = input.qty ?? 1;
    if (!Number.isInteger(qty) || qty < 1) throw new BookingRefused('bad_qty', key);
    const roomTypeId = await idOf(tx, 'room_types', propertyId, input.roomTypeId);
    const ratePlanId = await idOf(tx, 'rate_plans', propertyId, input.ratePlanId);
    const [pair] =
      roomTypeId && ratePlanId
        ? await tx.sql`select 1 from rate_plan_rooms
          where rate_plan_id = ${ratePlanId} and room_type_id = ${roomTypeId} and deleted_at is null`
        : [];
    if (!pair || !roomTypeId || !ratePlanId) throw new BookingRefused('unknown_room_or_rate', key);
    lines.push({
      roomTypeId,
      ratePlanId,
      qty,
      adults: input.adults ?? 1,
      children: input.children ?? 0,
      price: input.price ?? Number.NaN,
    });
  }
  return splitPrice(lines, totalPrice);
}

async function idOf(tx: Db, table: 'room_types' | 'rate_plans', propertyId: number, ref: number | string) {
  if (typeof ref === 'string') return (await findChild(tx, table, propertyId, ref))?.id;
  const [row] = await tx.query<{ id: number }>(
    `select id from ${table} where id = $1 and property_id = $2 and deleted_at is null`,
    [ref, propertyId],
  );
  return row?.id;
}

/** Lines without a price share what the priced lines leave of the total, to the cent (remainder on the first). */
function splitPrice(lines: ResolvedLine[], total: number): ResolvedLine[] {
  const open = lines.filter((l) => Number.isNaN(l.price));
  if (!open.length) return lines;
  const rest = Math.round((total - lines.reduce((s, l) => s + (Number.isNaN(l.price) ? 0 : l.price), 0)) * 100);
  const share = Math.floor(Math.max(rest, 0) / open.length);
  open.forEach((l, i) => {
    l.price = (share + (i === 0 ? Math.max(rest, 0) - share * open.length : 0)) / 100;
  });
  return lines;
}

export function bookedLines(
  lines: readonly { roomTypeId: number; qty: number }[],
  checkinDate: string,
  checkoutDate: string,
): BookedLine[] {
  return lines.map((l) => ({ roomTypeId: l.roomTypeId, qty: l.qty, checkinDate, checkoutDate }));
}

export function linesOfRows(rows: readonly BookingRoomRow[]): ResolvedLine[] {
  return rows.map((r) => ({
    roomTypeId: r.room_type_id,
    ratePlanId: r.rate_plan_id,
    qty: r.qty,
    adults: r.adults,
    children: r.children,
    price: Number(r.price),
  }));
}

export function sameLines(a: readonly ResolvedLine[], b: readonly ResolvedLine[]): boolean {
  const key = (l: ResolvedLine) =>
    `${l.roomTypeId}|${l.ratePlanId}|${l.qty}|${l.adults}|${l.children}|${l.price.toFixed(2)}`;
  return a.length === b.length && a.every((l, i) => key(l) === key(b[i] as ResolvedLine));
}

/**
 * Replaces a booking's rooms with `lines`, keeping the row (and so the legacy facade's sync annotations on
 * it) of every line whose room type and rate plan stay the same.
 */
export async function writeRooms(
  tx: Db,
  bookingId: number,
  existing: readonly BookingRoomRow[],
  lines: readonly ResolvedLine[],
  checkinDate: string,
  checkoutDate: string,
): Promise<void> {
  const unused = [...existing];
  for (const l of lines) {
    const i = unused.findIndex((r) => r.room_type_id === l.roomTypeId && r.rate_plan_id === l.ratePlanId);
    const row = i >= 0 ? unused.splice(i, 1)[0] : undefined;
    if (row) {
      await tx.sql`update booking_rooms set qty = ${l.qty}, adults = ${l.adults}, children = ${l.children}, price = ${l.price},
        checkin_date = ${checkinDate}, checkout_date = ${checkoutDate} where id = ${row.id}`;
    } else {
      await tx.sql`insert into booking_rooms (booking_id, room_type_id, rate_plan_id, qty, checkin_date, checkout_date, adults, children, price)
        values (${bookingId}, ${l.roomTypeId}, ${l.ratePlanId}, ${l.qty}, ${checkinDate}, ${checkoutDate}, ${l.adults}, ${l.children}, ${l.price})`;
    }
  }
  const gone = unused.map((r) => r.id);
  if (gone.length) await tx.sql`delete from booking_rooms where id = any(${gone}::bigint[])`;
}
