import type { BookingButtonRow } from '../booking-buttons/store.ts';
import { configEvent, recordWrite } from '../config-surfaces/config-event.ts';
import { type OwnedRow, updateOwned } from '../config-surfaces/owned-records.ts';
import { ratePlanRefs } from '../config-surfaces/rate-plan-refs.ts';
import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import { notFound } from '../core/http/api-error.ts';
import { nameTrOf, renamedNameTr } from '../core/name-tr.ts';
import { recordEvent } from '../core/outbox.ts';
import { isUuid, type PropertyRow, resolveProperty } from '../core/resolve.ts';
import type { SpecialOfferInput } from './model.ts';
import { checkOfferTerms } from './rules.ts';

export interface SpecialOfferRow extends OwnedRow {
  booking_button_id: number;
  button_external_id: string;
  name: string;
  name_tr: Record<string, string>;
  is_active: boolean;
  active_from_date: string;
  active_to_date: string;
  rate_plan_ids: string[];
  min_nights: number | null;
  max_nights: number | null;
  discount_percent: number;
}

const SELECT = `select o.*, b.external_id::text as button_external_id
  from special_offers o join booking_buttons b on b.id = o.booking_button_id`;

export async function listSpecialOffers(db: Db, button: BookingButtonRow): Promise<SpecialOfferRow[]> {
  return db.query<SpecialOfferRow>(`${SELECT} where o.booking_button_id = $1 and o.deleted_at is null order by o.id`, [
    button.id,
  ]);
}

async function offerById(db: Db, id: number): Promise<SpecialOfferRow> {
  const [row] = await db.query<SpecialOfferRow>(`${SELECT} where o.id = $1`, [id]);
  if (!row) throw new Error('special offer vanished inside its transaction');
  return row;
}

/** An offer and the property it belongs to, as a route under /special_offers/:offer acts on them. */
export interface ResolvedOffer {
  offer: SpecialOfferRow;
  property: PropertyRow;
}

/**
 * The offer with this id and its property through the one property resolver (404 across customers and
 * outside the allow-list). `write`: only a live one, locked for the rest of the caller's transaction; without
 * it a deleted one is found too (the check before the body, ./path-offer.ts).
 */
export async function resolveOffer(db: Db, principal: Principal, id: string, write = false): Promise<ResolvedOffer> {
  const [row] = isUuid(id)
    ? await db.query<SpecialOfferRow & { property_external_id: string }>(
        `select o.*, b.external_id::text as button_external_id, p.external_id::text as property_external_id
        from special_offers o join booking_buttons b on b.id = o.booking_button_id
        join properties p on p.id = o.property_id
        where o.external_id = $1${write ? ' and o.deleted_at is null for update of o' : ''}`,
        [id],
      )
    : [];
  if (!row) throw notFound();
  return { offer: row, property: await resolveProperty(db, principal, row.property_external_id) };
}

/** The offer a write leaves (the stored one, if any, with the fields present replaced), checked whole. */
async function merged(db: Db, property: PropertyRow, current: SpecialOfferRow | undefined, input: SpecialOfferInput) {
  const sfp = input.sfp;
  const terms = {
    active_from_date: input.active_from_date ?? current?.active_from_date ?? '',
    active_to_date: input.active_to_date ?? current?.active_to_date ?? '',
    // A nested object merges field by field (README, PATCH): a field it omits keeps its stored value.
    min_nights: sfp && 'min_nights' in sfp ? (sfp.min_nights ?? null) : (current?.min_nights ?? null),
    max_nights: sfp && 'max_nights' in sfp ? (sfp.max_nights ?? null) : (current?.max_nights ?? null),
  };
  checkOfferTerms(terms);
  return {
    ...terms,
    name: input.name ?? current?.name ?? '',
    // Created without name_tr: the name under the default locale, as every created resource (README, name_tr).
    // Renamed without name_tr: one auto-filled from the old name follows the new one (renamedNameTr).
    name_tr: current
      ? (input.name_tr ?? renamedNameTr(current.name_tr, current.name, input.name ?? current.name))
      : nameTrOf(input.name ?? '', input.name_tr),
    is_active: input.is_active ?? current?.is_active ?? true,
    discount_percent: input.discount_percent ?? current?.discount_percent ?? 0,
    rate_plan_ids: input.rate_plans_ids
      ? await ratePlanRefs(db, property.id, input.rate_plans_ids, 'special_offer', 'rate_plans_ids')
      : (current?.rate_plan_ids ?? []),
  };
}

export async function createSpecialOffer(
  tx: Db,
  button: BookingButtonRow,
  property: PropertyRow,
  input: SpecialOfferInput,
  now: Date,
): Promise<SpecialOfferRow> {
  const o = await merged(tx, property, undefined, input);
  const [row] = await tx.sql<{ id: number }>`
    insert into special_offers (booking_button_id, property_id, name, name_tr, is_active, active_from_date,
      active_to_date, rate_plan_ids, min_nights, max_nights, discount_percent, created_at, updated_at)
    values (${button.id}, ${property.id}, ${o.name}, ${o.name_tr}, ${o.is_active}, ${o.active_from_date},
      ${o.active_to_date}, ${o.rate_plan_ids}::uuid[], ${o.min_nights}, ${o.max_nights}, ${o.discount_percent},
      ${now}, ${now})
    returning id`;
  if (!row) throw new Error('special offer insert returned no row');
  return recordWrite(tx, property, { type: 'special_offer.created' }, await offerById(tx, row.id));
}

/** PATCH /special_offers/{id}: partial; the merged offer is checked whole, nothing written when it fails. */
export async function updateSpecialOffer(
  tx: Db,
  principal: Principal,
  id: string,
  input: SpecialOfferInput,
  now: Date,
): Promise<SpecialOfferRow> {
  const { offer, property } = await resolveOffer(tx, principal, id, true);
  const o = await merged(tx, property, offer, input);
  const row = await updateOwned(tx, 'special_offers', offer.id, o, now, { rate_plan_ids: 'uuid[]' });
  if (!row) return offer;
  return recordWrite(tx, property, { type: 'special_offer.updated' }, await offerById(tx, offer.id));
}

export async function deleteSpecialOffer(tx: Db, principal: Principal, id: string, now: Date): Promise<string> {
  const { offer, property } = await resolveOffer(tx, principal, id, true);
  await tx.sql`update special_offers set deleted_at = ${now}, updated_at = ${now} where id = ${offer.id}`;
  await recordEvent(tx, configEvent(property, { type: 'special_offer.deleted', special_offer_id: offer.external_id }));
  return offer.external_id;
}
