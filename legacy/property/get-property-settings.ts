import { readExtraServices } from '../../pricing/quote-terms.ts';
import type { Deps } from '../../server/core/deps.ts';
import type { LegacyCaller } from '../auth.ts';
import { dataResponse, PhpFloat } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { BED_TYPES, BOOKING_OTA_CODES, MEAL_PLANS, PAYMENT_METHOD_TYPES } from './dictionaries.ts';
import { localized, roomDetails } from './room-details.ts';
import { serviceName } from './service-name.ts';

type Section = (deps: Deps, caller: LegacyCaller, locale: string | undefined) => Promise<unknown>;

/** Every key of spec 4.8, in the order the answer lists them whatever order `names` asks in. */
const sections: Record<string, Section> = {
  property: async ({ db }, caller, locale) => {
    const [p] = await db.sql<{ id: number; name: string; name_tr: Record<string, string> }>`
      select id, name, name_tr from properties where id = ${caller.propertyId}`;
    return { id: p?.id ?? caller.propertyId, name: p ? localized(p.name, p.name_tr, locale) : '' };
  },
  rooms: (deps, caller, locale) => roomDetails(deps, caller.propertyId, locale),
  rates: async ({ db }, caller, locale) => {
    const rows = await db.sql<{ id: number; name: string; name_tr: Record<string, string>; room_ids: number[] }>`
      select p.id, p.name, p.name_tr,
        coalesce(array_agg(rr.room_type_id order by rr.room_type_id) filter (where rr.room_type_id is not null), '{}') as room_ids
      from rate_plans p
      left join rate_plan_rooms rr on rr.rate_plan_id = p.id and rr.deleted_at is null
      where p.property_id = ${caller.propertyId} and p.deleted_at is null
      group by p.id order by p.id`;
    return rows.map((r) => ({
      id: r.id,
      name: localized(r.name, r.name_tr, locale),
      room_ids: r.room_ids.map(Number),
    }));
  },
  // The property's extra services (modern /extra_services, spec 2.9) with their legacy bytes: id, name at the
  // request locale, price as a PHP float, then the remaining fields as the modern API names them.
  services: async ({ db }, caller, locale) => {
    const rows = await readExtraServices(db, caller.propertyId);
    return rows.map((r) => ({
      id: r.id,
      name: serviceName(r, locale),
      price: new PhpFloat(Number(r.price)),
      price_type: r.price_type,
      is_daily: r.is_daily,
      do_not_apply_promotions: r.do_not_apply_promotions,
      active_week_days: r.active_week_days,
      client_select_dates_settings: {
        type: r.select_dates_type,
        min_days: r.select_min_days,
        max_days: r.select_max_days,
      },
    }));
  },
  payment_methods: async ({ db }, caller) => {
    const rows = await db.sql<{ id: number; name: string; pay_type: string }>`
      select id, name, pay_type from payment_policies
      where property_id = ${caller.propertyId} and deleted_at is null order by id`;
    return rows.map((r) => ({ id: r.id, name: r.name, type: r.pay_type }));
  },
  payment_methods_types: async () => PAYMENT_METHOD_TYPES,
  meal_plans: async () => MEAL_PLANS,
  bed_types: async () => BED_TYPES,
  booking_modules: async ({ db }, caller) =>
    db.sql<{ id: number; name: string; url_key: string }>`
      select id, name, url_key from booking_buttons
      where property_id = ${caller.propertyId} and is_active and deleted_at is null order by id`,
  booking_ota_codes: async () => BOOKING_OTA_CODES,
};

/**
 * GET property/getPropertySettings (spec 4.8). `names` is a comma-separated list of keys (case-sensitive,
 * blanks around commas ignored); unknown names are ignored; empty or omitted means every key. `data` is
 * always an object, `{}` when no known name was asked. `lang` picks the locale of names.
 */
export async function getPropertySettings({ deps, caller, query }: LegacyCall): Promise<Response> {
  const asked =
    typeof query.names === 'string'
      ? query.names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
      : [];
  const locale = typeof query.lang === 'string' ? query.lang : undefined;
  const data: Record<string, unknown> = {};
  for (const [name, section] of Object.entries(sections)) {
    if (asked.length && !asked.includes(name)) continue;
    data[name] = await section(deps, caller, locale);
  }
  return dataResponse(data);
}
