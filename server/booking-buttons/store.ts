import type { OwnedRow } from '../config-surfaces/owned-records.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { isUuid, type PropertyRow, resolveProperty } from '../core/resolve.ts';

/**
 * A booking button (spec 2.9) is the booking module of the legacy facade: the same `booking_buttons` row,
 * its `url_key` the legacy `bm_code`. One table, so the two interfaces cannot disagree.
 */
export interface BookingButtonRow extends OwnedRow {
  name: string;
  url_key: string;
  url_link: string;
  is_active: boolean;
  currency_code: string | null;
  lng_locale: string;
}

/** A button and the property it belongs to, as a route under /booking_buttons/:button acts on them. */
export interface ResolvedButton {
  button: BookingButtonRow;
  property: PropertyRow;
}

/**
 * The live button with this id and its property, through the one property resolver: a button of another
 * customer's property, or of one outside the token's allow-list, is 404 like a missing one.
 */
export async function resolveBookingButton(db: Db, principal: Principal, id: string): Promise<ResolvedButton> {
  const [row] = isUuid(id)
    ? await db.sql<BookingButtonRow & { property_external_id: string }>`
        select b.*, p.external_id::text as property_external_id
        from booking_buttons b join properties p on p.id = b.property_id
        where b.external_id = ${id} and b.deleted_at is null`
    : [];
  if (!row) throw notFound();
  const property = await resolveProperty(db, principal, row.property_external_id);
  return { button: row, property };
}
