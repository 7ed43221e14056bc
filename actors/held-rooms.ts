import type { Db } from '../server/core/db/db.ts';
import { adjustBooked } from './availability-writes.ts';

/** Rooms a booking holds per (room type, night), keyed by `heldNight(roomTypeId, date)`. */
export type HeldRooms = Map<string, number>;

export const heldNight = (roomTypeId: number, date: string): string => `${roomTypeId}|${date}`;

/**
 * Bookings' held rooms, as data: moves `booked` from what a booking held before to what it holds now,
 * through the calendar's one availability writer. Runs inside the property's actor turn (the caller's `tx`),
 * the same one that changes the booking rows; `offered` is never touched here.
 */
export async function moveHeldRooms(tx: Db, before: HeldRooms, after: HeldRooms): Promise<void> {
  const changes = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
    const [roomTypeId, date] = key.split('|') as [string, string];
    return { roomTypeId: Number(roomTypeId), date, delta: (after.get(key) ?? 0) - (before.get(key) ?? 0) };
  });
  await adjustBooked(tx, changes);
}
