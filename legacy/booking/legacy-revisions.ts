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
 * Revision ids (spec 4.8): below FIRST_GENERATED_BOOKING_ID the MD5 of the content bytes with number 1; from
 * it on `{booking_id}-{revision_number}-{first 16 hex of SHA-256 of the content}`, so the same content
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

/** Which bookings getBookings answers for: the property's, check-in from `from`, optionally one booking. */
export interface RevisionScope {
  propertyId: number;
  from: string;
  bookingId: number | null;
}

interface Candidate extends BookingRow {
  /** The booking row's version (xmin): it changes with every update of the row. */
  version: string;
  latest_seq: number | null;
  latest_md5: string | null;
  latest_version: string | null;
}

const CANDIDATE_COLUMNS = `b.id, b.status, b.checkin_date, b.checkout_date, b.adults, b.children, b.guest_first_name,
  b.guest_last_name, b.guest_email, b.guest_phone, b.currency_code, b.xmin::text as version,
  l.seq as latest_seq, l.content_md5 as latest_md5, l.booking_version as latest_version`;
const LATEST = `left join lateral (
  select seq, content_md5, booking_version, acked_at from legacy_booking_revisions
  where booking_id = b.id order by seq desc limit 1) l on true`;

/**
 * The current revision of every booking in scope that getBookings may answer: unacked ones (every one when
 * a booking is named), after bringing the stored legacy revisions up to date.
 *
 * A revision records the version of the booking row its content was computed from (booking_version, the
 * row's xmin: every change of a booking's content updates its row, room lines included, lifecycle.ts), so
 * content is computed only for bookings whose row changed since their latest revision.
 *
 * Which bookings to look at: every change of a booking's content appends a modern revision
 * (booking_revisions, committed in id order per customer, revisions.ts), so after a first call over every
 * future booking, a property's mark (legacy_booking_marks) keeps the last modern revision id seen and the
 * bookings answered unacked; a later call looks only at bookings with a modern revision after the mark, those
 * pending ones, and seeded bookings (imported without revisions) that have no legacy revision yet. The work
 * follows the answer and the changes, not the number of future bookings (issue 24: 140 ms on 10000, every
 * call). Two PMS calls racing over the same booking agree on one revision row (unique booking_id, seq).
 */
export async function currentRevisions(db: Db, scope: RevisionScope, now: Date): Promise<StoredRevision[]> {
  if (scope.bookingId !== null) return revisionsOf(db, await allCandidates(db, scope), now);
  const [mark] = await db.sql<{ through: number; pending: number[] }>`
    select revision_through as through, pending from legacy_booking_marks where property_id = ${scope.propertyId}`;
  // Taken before the candidates are read: every revision up to it is committed (commit order is id order), so
  // the candidates' statement sees it; one committed later has a higher id and is the next call's. The last
  // entry of the property's index range, read backwards: max(id) over `= any(array[..])` read every entry of
  // the property (10000 on the bench's legacy property; the shape is feed.ts's ONE_PROPERTY_IN_ID_ORDER).
  const [top] = await db.sql<{ through: number }>`
    select coalesce((select id from booking_revisions where property_id = any(array[${scope.propertyId}::bigint])
      order by property_id desc, id desc limit 1), 0) as through`;
  const candidates = mark ? await changedCandidates(db, scope, mark) : await allCandidates(db, scope);
  const revisions = await revisionsOf(db, candidates, now);
  const pending = revisions.filter((r) => r.acked_at === null).map((r) => r.booking_id);
  // Another call may have added pending bookings meanwhile: those stay, the ones this call read are replaced.
  await db.sql`
    insert into legacy_booking_marks as m (property_id, revision_through, pending)
    values (${scope.propertyId}, ${top?.through ?? 0}, ${pending}::bigint[])
    on conflict (property_id) do update set
      revision_through = greatest(m.revision_through, excluded.revision_through),
      pending = array(select unnest(excluded.pending) union
        (select unnest(m.pending) except select unnest(${mark?.pending ?? []}::bigint[])))`;
  return revisions;
}

/** Every future booking of the scope whose latest revision is missing, out of date, unacked, or asked for. */
function allCandidates(db: Db, scope: RevisionScope): Promise<Candidate[]> {
  return db.query<Candidate>(
    `select ${CANDIDATE_COLUMNS} from bookings b ${LATEST}
     where b.property_id = $1 and b.checkin_date >= $2::date and b.status <> 'requested'
       and ($3::bigint is null or b.id = $3::bigint)
       and (l.seq is null or l.booking_version is distinct from b.xmin::text or l.acked_at is null or $3::bigint is not null)
     order by b.id`,
    [scope.propertyId, scope.from, scope.bookingId],
  );
}

/**
 * The same, among bookings changed since the mark, pending ones and seeded ones never sent. Their ids are
 * gathered first (`= any(array(..))`) and the bookings probed by primary key: as `in (..)`, the generic plan
 * hashed the ids and scanned every future booking of the property against them (10000 rows for 20 ids, 3-28 ms
 * on the bench's legacy property; 0.2 ms probed).
 */
function changedCandidates(
  db: Db,
  scope: RevisionScope,
  mark: { through: number; pending: number[] },
): Promise<Candidate[]> {
  return db.query<Candidate>(
    `select ${CANDIDATE_COLUMNS} from bookings b ${LATEST}
     where b.id = any(array(
         select r.booking_id from booking_revisions r where r.property_id = any(array[$1::bigint]) and r.id > $3::bigint
         union select unnest($4::bigint[])
         union select s.id from bookings s where s.property_id = $1 and s.seeded and s.checkin_date >= $2::date
           and not exists (select from legacy_booking_revisions x where x.booking_id = s.id)))
       and b.property_id = $1 and b.checkin_date >= $2::date and b.status <> 'requested'
       and (l.seq is null or l.booking_version is distinct from b.xmin::text or l.acked_at is null)
     order by b.id`,
    [scope.propertyId, scope.from, mark.through, mark.pending],
  );
}

/** Brings the candidates' stored revisions up to date and answers each one's latest. */
async function revisionsOf(db: Db, candidates: Candidate[], now: Date): Promise<StoredRevision[]> {
  if (!candidates.length) return [];
  const stale = candidates.filter((c) => c.latest_seq === null || c.latest_version !== c.version);
  if (stale.length) await refresh(db, stale, now);
  return [
    ...(
      await latestRevisions(
        db,
        candidates.map((c) => c.id),
      )
    ).values(),
  ];
}

/** Computes the content of bookings whose row changed: a new revision where it differs, the new version where not. */
async function refresh(db: Db, stale: Candidate[], now: Date): Promise<void> {
  const items = new Map<number, ItemRow[]>();
  for (const item of await db.sql<ItemRow>`
    select id, booking_id, room_type_id, rate_plan_id, checkin_date, checkout_date, adults, price
    from booking_rooms where booking_id = any(${stale.map((b) => b.id)}::bigint[]) order by id`) {
    const list = items.get(item.booking_id);
    if (list) list.push(item);
    else items.set(item.booking_id, [item]);
  }
  const fresh: (Omit<StoredRevision, 'id' | 'acked_at'> & { version: string })[] = [];
  const unchanged: Candidate[] = [];
  for (const b of stale) {
    const content = contentOf(b, items.get(b.id) ?? []);
    const digest = md5(content);
    if (b.latest_md5 === digest) {
      unchanged.push(b);
      continue;
    }
    const seq = (b.latest_seq ?? 0) + 1;
    fresh.push({
      booking_id: b.id,
      seq,
      ...revisionIdentity(b.id, seq, content),
      content_md5: digest,
      content,
      version: b.version,
    });
  }
  if (fresh.length) {
    await db.sql`
      insert into legacy_booking_revisions (booking_id, seq, revision_number, revision_id, content_md5, content,
        booking_version, created_at)
      select *, ${now}::timestamptz from unnest(${fresh.map((f) => f.booking_id)}::bigint[], ${fresh.map((f) => f.seq)}::int[],
        ${fresh.map((f) => f.revision_number)}::int[], ${fresh.map((f) => f.revision_id)}::text[],
        ${fresh.map((f) => f.content_md5)}::text[], ${fresh.map((f) => f.content)}::text[], ${fresh.map((f) => f.version)}::text[])
      on conflict (booking_id, seq) do nothing`;
  }
  if (unchanged.length) {
    await db.sql`
      update legacy_booking_revisions l set booking_version = u.version
      from unnest(${unchanged.map((b) => b.id)}::bigint[], ${unchanged.map((b) => b.latest_seq)}::int[],
        ${unchanged.map((b) => b.version)}::text[]) as u(booking_id, seq, version)
      where l.booking_id = u.booking_id and l.seq = u.seq`;
  }
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
