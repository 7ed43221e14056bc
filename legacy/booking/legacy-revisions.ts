import { createHash } from 'node:crypto';
import { sha256Hex } from '../../server/core/auth/secrets.ts';
import { FIRST_GENERATED_BOOKING_ID } from '../../server/core/booking-ids.ts';
import type { Db } from '../../server/core/db/db.ts';
import { PhpFloat, phpJsonEncode, RawJson } from '../bytes.ts';

export interface StoredRevision {
  id: number;
  booking_id: number;
  seq: number;
  revision_number: number;
  revision_id: string;
  content_md5: string;
  content: string;
  acked_at: Date | null;
}

interface BookingRow {
  id: number;
  status: string;
  checkin_date: string;
  checkout_date: string;
  adults: number;
  children: number;
  guest_first_name: string;
  guest_last_name: string;
  guest_email: string;
  guest_phone: string;
  currency_code: string;
}

interface ItemRow {
  id: number;
  booking_id: number;
  room_type_id: number;
  rate_plan_id: number;
  checkin_date: string;
  checkout_date: string;
  adults: number;
  price: number;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * The legacy revision content (spec 2.10) of a booking as it stands: everything but revision_id and
 * revision_number, in the order the legacy service wrote it, encoded once by bytes.ts. The guest is not
 * masked: the PMS checks the guest in (the masking of spec 1.9 is the modern feed's). Annotations a PMS
 * writes back (ext_reservation_id, room numbers) are not content, so an ack never makes a new revision.
 */
function contentOf(b: BookingRow, items: ItemRow[]): string {
  const currency = b.currency_code.trim();
  return phpJsonEncode({
    booking_id: b.id,
    status: b.status,
    checkin_date: b.checkin_date,
    checkout_date: b.checkout_date,
    num_adults: b.adults,
    num_children: b.children,
    client: {
      first_name: b.guest_first_name,
      last_name: b.guest_last_name,
      email: b.guest_email,
      phone: b.guest_phone,
    },
    booking_items: items.map((i) => ({
      booking_item_id: i.id,
      room_id: i.room_type_id,
      rate_id: i.rate_plan_id,
      checkin_date: i.checkin_date,
      checkout_date: i.checkout_date,
      num_adults: i.adults,
      price: new PhpFloat(i.price),
      currency,
    })),
  });
}

/**
 * Revision ids (spec 4.8): below booking id 161300 the MD5 of the content bytes with number 1; from
 * 161300 on `{booking_id}-{revision_number}-{first 16 hex of SHA-256 of the content}`, so the same content
 * keeps its id, any change gives a new id, and a change back to earlier content still gets a new id and
 * a higher number.
 */
export function revisionIdentity(
  bookingId: number,
  seq: number,
  content: string,
): { revision_id: string; revision_number: number } {
  if (bookingId < FIRST_GENERATED_BOOKING_ID) return { revision_id: md5(content), revision_number: 1 };
  return { revision_id: `${bookingId}-${seq}-${sha256Hex(content).slice(0, 16)}`, revision_number: seq };
}

/**
 * Brings the stored legacy revisions of these bookings up to date and returns each one's current revision.
 * A booking whose content differs from its latest stored revision gets a new one; two PMS calls racing
 * over the same booking agree on one row (unique booking_id, seq), the loser re-reads it.
 */
export async function currentRevisions(
  db: Db,
  bookings: BookingRow[],
  now: Date,
): Promise<Map<number, StoredRevision>> {
  const ids = bookings.map((b) => b.id);
  const items = await db.sql<ItemRow>`
    select id, booking_id, room_type_id, rate_plan_id, checkin_date, checkout_date, adults, price
    from booking_rooms where booking_id = any(${ids}::bigint[]) order by id`;
  const current = await latestRevisions(db, ids);
  const fresh: Omit<StoredRevision, 'id' | 'acked_at'>[] = [];
  for (const b of bookings) {
    const content = contentOf(
      b,
      items.filter((i) => i.booking_id === b.id),
    );
    const digest = md5(content);
    const latest = current.get(b.id);
    if (latest?.content_md5 === digest) continue;
    const seq = (latest?.seq ?? 0) + 1;
    fresh.push({ booking_id: b.id, seq, ...revisionIdentity(b.id, seq, content), content_md5: digest, content });
  }
  if (fresh.length) {
    await db.sql`
      insert into legacy_booking_revisions (booking_id, seq, revision_number, revision_id, content_md5, content, created_at)
      select * , ${now}::timestamptz from unnest(${fresh.map((f) => f.booking_id)}::bigint[], ${fresh.map((f) => f.seq)}::int[],
        ${fresh.map((f) => f.revision_number)}::int[], ${fresh.map((f) => f.revision_id)}::text[],
        ${fresh.map((f) => f.content_md5)}::text[], ${fresh.map((f) => f.content)}::text[])
      on conflict (booking_id, seq) do nothing`;
    for (const [id, row] of await latestRevisions(
      db,
      fresh.map((f) => f.booking_id),
    ))
      current.set(id, row);
  }
  return current;
}

async function latestRevisions(db: Db, bookingIds: number[]): Promise<Map<number, StoredRevision>> {
  const rows = await db.sql<StoredRevision>`
    select distinct on (booking_id) id, booking_id, seq, revision_number, revision_id, content_md5, content, acked_at
    from legacy_booking_revisions where booking_id = any(${bookingIds}::bigint[])
    order by booking_id, seq desc`;
  return new Map(rows.map((r) => [r.booking_id, r]));
}

/** The wire form: revision_id and revision_number first, then the frozen content bytes. */
export function revisionBytes(r: StoredRevision): RawJson {
  const head = phpJsonEncode({ revision_id: r.revision_id, revision_number: r.revision_number });
  return new RawJson(`${head.slice(0, -1)},${r.content.slice(1)}`);
}

export type { BookingRow as LegacyBookingRow };
