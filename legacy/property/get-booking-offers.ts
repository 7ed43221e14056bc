import { extraPrice } from '../../pricing/extras.ts';
import { quoteMoment, readExtraServices } from '../../pricing/quote-terms.ts';
import { addDays, daysBetween, daysOf, isDay } from '../../server/core/days.ts';
import { dataResponse, PhpFloat } from '../bytes.ts';
import type { LegacyCall } from '../legacy-call.ts';
import { badRequest, messages, notFound } from '../messages.ts';
import { asList, isArray, isSet, looseInt, optionalText } from '../php-input.ts';
import { quoteOffers } from './offer-quote.ts';
import { localized } from './room-details.ts';
import { serviceName } from './service-name.ts';

const m = messages.getBookingOffers;
const MAX_NIGHTS = 30;
const MAX_CHILD_AGE = 17;

/**
 * GET property/getBookingOffers (design; spec 4.8 fixes only `bm_code`, `guests.adults` and
 * `guests.children_by_ages[].age`). Parameters in the query string, PHP bracket syntax for the guests
 * (`guests[adults]=2&guests[children_by_ages][0][age]=7`), or the same fields in a JSON body:
 *   bm_code (booking module url_key), checkin_date, checkout_date (1 to 30 nights), guests.adults (>= 1),
 *   guests.children_by_ages[] (optional, each {age: 0..17}), lang (optional, names' locale).
 * Checks in this order: 400 `Bad request data!` (bm_code or dates missing or invalid), 400 for `guests`,
 * then `guests`->`adults`, then each child's age; 404 when the module is unknown or inactive; 404
 * `Property owner not found.` when the module belongs to another property than the api key's, or the
 * property is disabled. Answer: the stay, the guests and `offers[]` (one per sellable room and rate pair,
 * see offer-quote.ts), possibly empty. Optional `device=mobile` marks a mobile quote (mobile promotions
 * apply). An offer a promotion or special offer discounts shows the discounted `price` and `nightly_prices`,
 * then `price_before_discount` and `discount` {type: promotion|special_offer, id, name}; other offers carry
 * neither key. `with_services=1` adds `services[]` to each offer: the property's extra services sold on the
 * stay with their price for it (pricing/extras.ts), discounted like the offer unless a service has
 * do_not_apply_promotions.
 */
export async function getBookingOffers({ deps, caller, query, body }: LegacyCall): Promise<Response> {
  const input = { ...(isArray(body) ? body : {}), ...query };
  const { bm_code: bmCode, checkin_date: checkin, checkout_date: checkout } = input;
  if (typeof bmCode !== 'string' || !bmCode || !isDay(checkin) || !isDay(checkout)) throw badRequest(m.badRequest);
  const nights = daysBetween(checkin, checkout);
  if (nights < 1 || nights > MAX_NIGHTS) throw badRequest(m.badRequest);

  const guests = input.guests;
  if (!isArray(guests) || Array.isArray(guests)) throw badRequest(m.badGuests);
  const adults = looseInt(guests.adults);
  if (adults === undefined || adults < 1) throw badRequest(m.badAdults);
  const children = isSet(guests.children_by_ages) ? asList(guests.children_by_ages) : [];
  if (!children) throw badRequest(m.badGuests);
  const ages = children.map((c) => (isArray(c) ? looseInt(c.age) : undefined));
  if (ages.some((a) => a === undefined || a < 0 || a > MAX_CHILD_AGE)) throw badRequest(m.badChildAge);
  const childAges = ages as number[];

  const [module] = await deps.db.sql<{ id: number; property_id: number; status: string }>`
    select b.id, b.property_id, p.status from booking_buttons b join properties p on p.id = b.property_id
    where b.url_key = ${optionalText(bmCode)} and b.is_active and b.deleted_at is null`;
  if (!module) throw notFound(m.moduleNotFound(bmCode));
  if (module.property_id !== caller.propertyId || module.status !== 'active') throw notFound(m.ownerNotFound);

  const locale = typeof input.lang === 'string' ? input.lang : undefined;
  const withServices = input.with_services === '1' || input.with_services === true || input.with_services === 'true';
  const services = withServices ? await readExtraServices(deps.db, caller.propertyId) : [];
  const nightDates = daysOf(checkin, addDays(checkout, -1));
  const guestCounts = { adults, children: childAges.length };
  const moment = quoteMoment(caller.timezone, deps.clock.now(), input.device === 'mobile');
  const offers = await quoteOffers(deps.db, caller.propertyId, {
    checkin,
    checkout,
    adults,
    childAges,
    discounts: { bookingButtonId: module.id, moment },
  });
  return dataResponse({
    bm_code: bmCode,
    checkin_date: checkin,
    checkout_date: checkout,
    nights,
    currency: caller.currency,
    guests: { adults, children_by_ages: childAges.map((age) => ({ age })) },
    offers: offers.map((o) => ({
      room_id: o.roomId,
      room_name: localized(o.roomName, o.roomNameTr, locale),
      rate_id: o.rateId,
      rate_name: localized(o.rateName, o.rateNameTr, locale),
      meal_plan: o.mealPlan,
      available_qty: o.availableQty,
      price: new PhpFloat(o.total),
      currency: caller.currency,
      nightly_prices: o.nightly.map((n) => ({ date: n.date, price: new PhpFloat(n.price) })),
      // Only on a discounted offer, after the fields every offer has.
      ...(o.discount && {
        price_before_discount: new PhpFloat(o.discount.undiscountedTotal),
        discount: { type: o.discount.type, id: o.discount.id, name: o.discount.name },
      }),
      ...(withServices && {
        services: services.flatMap((service) => {
          const quoted = extraPrice(service, nightDates, guestCounts, o.discount?.percent ?? null);
          if (!quoted) return [];
          return [
            {
              id: service.id,
              name: serviceName(service, locale),
              price: new PhpFloat(quoted.price),
              ...(quoted.undiscounted !== undefined && { price_before_discount: new PhpFloat(quoted.undiscounted) }),
            },
          ];
        }),
      }),
    })),
  });
}
