import type { RoomTypeRecord } from './service.ts';

/**
 * A room type as partners see it (spec 2.3): `id` equals `external_room_type_id`. The bed and legacy
 * fields after `partner_name` are additive: they are what POST accepts and what drives the vocabulary.
 */
export function roomTypeView(r: RoomTypeRecord) {
  return {
    external_room_type_id: r.external_id,
    id: r.external_id,
    name: r.name,
    name_tr: r.name_tr,
    kind: r.kind,
    qty: r.qty,
    occupancy: { adults: r.max_adults, children: r.max_children, infants: r.max_infants },
    partner_code: r.partner_code,
    partner_name: r.partner_name,
    type: r.legacy_type,
    description: r.description,
    sqm_area: r.sqm_area,
    regular_beds: r.regular_beds,
    extra_beds: r.extra_beds,
    extra_beds_children_only: r.extra_beds_children_only,
    no_beds: r.no_beds,
    images: r.images,
  };
}
