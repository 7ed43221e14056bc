import type { Db } from '../../server/core/db/db.ts';
import { addDays, daysOf } from '../calendar-days.ts';

/**
 * The quote behind getBookingOffers: for a stay and its guests, every (room, rate plan) pair of the
 * property that can be sold from the calendar, with its price. The pricing rule, written down here and in
 * the README because the spec leaves it open:
 *
 * - A room fits when adults <= max_adults and all guests <= max_adults + max_children + max_infants. A
 *   child whose age falls in no age bracket of the property counts as an adult.
 * - Every night needs a calendar row that is opened with at least one free room (offered - booked);
 *   `available_qty` is the smallest free count over the nights.
 * - Restrictions of the pair: stop_sell on any night, closed_to_arrival on the check-in day,
 *   closed_to_departure on the check-out day, min_los / max_los of the check-in day exclude the pair.
 * - A night's price comes from the stored codes of the pair (a child plan prices from its parent's pair,
 *   times 1 + percent/100 of the derivation period holding the check-in day): per_room `ROOM`; per_person
 *   `A{adults}` plus, per child, its bracket's `EB`, `NB` or `RB` code (the first priced); per_occupancy
 *   `A1` plus `Apn1..Apn{adults-1}` plus, per child in position k after the adults, `{bracket}pn{k}`.
 *   Derived codes apply their modifier to their base, fee codes their fee, cost_free codes 0; a child code
 *   the pair does not price costs nothing. A night whose adult code has no price makes the pair unsellable.
 */
export interface Stay {
  checkin: string;
  checkout: string;
  adults: number;
  childAges: number[];
}

export interface Offer {
  roomId: number;
  roomName: string;
  roomNameTr: Record<string, string>;
  rateId: number;
  rateName: string;
  rateNameTr: Record<string, string>;
  mealPlan: string;
  availableQty: number;
  nightly: { date: string; price: number }[];
  total: number;
}

interface Entry {
  code: string;
  kind: string;
  derived_from?: string;
  modifier?: [string, number];
  fee?: number;
}

interface PairRow {
  room_id: number;
  room_name: string;
  room_name_tr: Record<string, string>;
  max_adults: number;
  max_children: number;
  max_infants: number;
  rate_id: number;
  rate_name: string;
  rate_name_tr: Record<string, string>;
  meal_plan: string;
  sell_type: string;
  price_plan_id: number;
  derivation: { percent?: number; periods?: { from: string; to: string; percent: number }[] } | null;
  occupancies: Entry[];
}

interface Bracket {
  code: string;
  from_age: number;
  to_age: number;
}

export async function quoteOffers(db: Db, propertyId: number, stay: Stay): Promise<Offer[]> {
  const nights = daysOf(stay.checkin, addDays(stay.checkout, -1));
  const pairs = await db.sql<PairRow>`
    select r.id as room_id, r.name as room_name, r.name_tr as room_name_tr, r.max_adults, r.max_children, r.max_infants,
      p.id as rate_id, p.name as rate_name, p.name_tr as rate_name_tr, p.meal_plan, p.sell_type,
      coalesce(p.parent_id, p.id) as price_plan_id, p.derivation, coalesce(src.occupancies, rr.occupancies) as occupancies
    from room_types r
    join rate_plan_rooms rr on rr.room_type_id = r.id and rr.deleted_at is null
    join rate_plans p on p.id = rr.rate_plan_id and p.deleted_at is null
    left join rate_plan_rooms src on src.rate_plan_id = p.parent_id and src.room_type_id = r.id and src.deleted_at is null
    where r.property_id = ${propertyId} and r.deleted_at is null
    order by r.id, p.id`;
  if (!pairs.length) return [];
  const roomIds = [...new Set(pairs.map((p) => p.room_id))];
  const planIds = [...new Set(pairs.flatMap((p) => [p.rate_id, p.price_plan_id]))];

  const free = new Map<string, { free: number; opened: boolean }>();
  for (const a of await db.sql<{ room_type_id: number; date: string; free: number; opened: boolean }>`
    select room_type_id, date, offered - booked as free, opened from availability
    where room_type_id = any(${roomIds}::bigint[]) and date >= ${stay.checkin}::date and date < ${stay.checkout}::date`) {
    free.set(`${a.room_type_id}|${a.date}`, { free: a.free, opened: a.opened });
  }
  const prices = new Map<string, Record<string, number>>();
  for (const p of await db.sql<{
    rate_plan_id: number;
    room_type_id: number;
    date: string;
    prices: Record<string, number>;
  }>`
    select rate_plan_id, room_type_id, date, prices from rates
    where rate_plan_id = any(${planIds}::bigint[]) and room_type_id = any(${roomIds}::bigint[])
      and date >= ${stay.checkin}::date and date < ${stay.checkout}::date`) {
    prices.set(`${p.rate_plan_id}|${p.room_type_id}|${p.date}`, p.prices);
  }
  type Restriction = {
    min_los: number | null;
    max_los: number | null;
    stop_sell: boolean | null;
    closed_to_arrival: boolean | null;
    closed_to_departure: boolean | null;
  };
  const restrictions = new Map<string, Restriction>();
  for (const r of await db.sql<Restriction & { rate_plan_id: number; room_type_id: number; date: string }>`
    select rate_plan_id, room_type_id, date, min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure from restrictions
    where rate_plan_id = any(${planIds}::bigint[]) and room_type_id = any(${roomIds}::bigint[])
      and date >= ${stay.checkin}::date and date <= ${stay.checkout}::date`) {
    restrictions.set(`${r.rate_plan_id}|${r.room_type_id}|${r.date}`, r);
  }
  const brackets = await ageBrackets(db, propertyId);
  const children = stay.childAges.map((age) => brackets.find((b) => age >= b.from_age && age <= b.to_age)?.code);
  const adults = stay.adults + children.filter((c) => c === undefined).length;
  const childLetters = children.filter((c): c is string => c !== undefined);

  const offers: Offer[] = [];
  for (const pair of pairs) {
    if (
      adults > pair.max_adults ||
      adults + childLetters.length > pair.max_adults + pair.max_children + pair.max_infants
    )
      continue;
    const restrictionOf = (date: string) => restrictions.get(`${pair.rate_id}|${pair.room_id}|${date}`);
    const arrival = restrictionOf(stay.checkin);
    if (arrival?.closed_to_arrival || restrictionOf(stay.checkout)?.closed_to_departure) continue;
    if ((arrival?.min_los && nights.length < arrival.min_los) || (arrival?.max_los && nights.length > arrival.max_los))
      continue;
    const factor = 1 + derivationPercent(pair, stay.checkin) / 100;
    let availableQty = Number.POSITIVE_INFINITY;
    const nightly: { date: string; price: number }[] = [];
    for (const date of nights) {
      const day = free.get(`${pair.room_id}|${date}`);
      if (!day?.opened || day.free < 1 || restrictionOf(date)?.stop_sell) break;
      const stored = prices.get(`${pair.price_plan_id}|${pair.room_id}|${date}`);
      const base = stored && nightPrice(pair.sell_type, pair.occupancies, stored, adults, childLetters);
      if (base === undefined) break;
      availableQty = Math.min(availableQty, day.free);
      nightly.push({ date, price: round2(base * factor) });
    }
    if (nightly.length !== nights.length) continue;
    offers.push({
      roomId: pair.room_id,
      roomName: pair.room_name,
      roomNameTr: pair.room_name_tr,
      rateId: pair.rate_id,
      rateName: pair.rate_name,
      rateNameTr: pair.rate_name_tr,
      mealPlan: pair.meal_plan,
      availableQty,
      nightly,
      total: round2(nightly.reduce((sum, n) => sum + n.price, 0)),
    });
  }
  return offers;
}

function nightPrice(
  sellType: string,
  entries: Entry[],
  stored: Record<string, number>,
  adults: number,
  children: string[],
): number | undefined {
  const value = (code: string) => codeValue(code, entries, stored);
  if (sellType === 'per_room') return value('ROOM');
  if (sellType === 'per_person') {
    const adultPrice = value(`A${adults}`);
    if (adultPrice === undefined) return undefined;
    return children.reduce((sum, l) => sum + (value(`${l}EB`) ?? value(`${l}NB`) ?? value(`${l}RB`) ?? 0), adultPrice);
  }
  let total = value('A1');
  for (let k = 1; k < adults && total !== undefined; k++) {
    const supplement = value(`Apn${k}`);
    total = supplement === undefined ? undefined : total + supplement;
  }
  if (total === undefined) return undefined;
  return children.reduce((sum, l, i) => sum + (value(`${l}pn${adults + i}`) ?? 0), total);
}

function codeValue(code: string, entries: Entry[], stored: Record<string, number>): number | undefined {
  const entry = entries.find((e) => e.code === code);
  if (!entry) return undefined;
  switch (entry.kind) {
    case 'manual':
      return typeof stored[code] === 'number' ? stored[code] : undefined;
    case 'fee':
      return entry.fee ?? 0;
    case 'cost_free':
      return 0;
    case 'derived': {
      const base = entry.derived_from === undefined ? undefined : stored[entry.derived_from];
      return typeof base === 'number' && entry.modifier ? modify(base, entry.modifier) : undefined;
    }
    default:
      return undefined;
  }
}

function modify(base: number, [name, n]: [string, number]): number {
  switch (name) {
    case 'decrease_by_percent':
      return base * (1 - n / 100);
    case 'increase_by_percent':
      return base * (1 + n / 100);
    case 'decrease_by_amount':
      return base - n;
    default:
      return base + n;
  }
}

function derivationPercent(pair: PairRow, checkin: string): number {
  if (pair.price_plan_id === pair.rate_id || !pair.derivation) return 0;
  const period = pair.derivation.periods?.find((p) => checkin >= p.from && checkin <= p.to);
  return period?.percent ?? pair.derivation.percent ?? 0;
}

async function ageBrackets(db: Db, propertyId: number): Promise<Bracket[]> {
  const [row] = await db.sql<{ is_active: boolean; groups: Bracket[] }>`
    select is_active, groups from age_groups where property_id = ${propertyId}`;
  if (!row)
    return [
      { code: 'I', from_age: 0, to_age: 2 },
      { code: 'C', from_age: 3, to_age: 11 },
      { code: 'T', from_age: 12, to_age: 17 },
    ];
  return row.is_active && Array.isArray(row.groups) ? row.groups : [];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
