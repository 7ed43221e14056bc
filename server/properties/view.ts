import type { PropertyRow } from '../core/resolve.ts';

/** A property as partners see it (spec 2.1): `id` equals `external_property_id`. */
export function propertyView(p: PropertyRow) {
  return {
    external_property_id: p.external_id,
    id: p.external_id,
    name: p.name,
    name_tr: p.name_tr,
    currency: p.currency.trim(),
    timezone: p.timezone,
    mode: p.mode,
    partner_code: p.partner_code,
    partner_name: p.partner_name,
  };
}
