import type { Principal } from '../core/auth/principal.ts';
import { isDay } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { ApiError, type FieldErrors, fieldError, validationError } from '../core/http/api-error.ts';
import { findChild, findChildren, isUuid, type PropertyRow } from '../core/resolve.ts';
import type { RoomTypeRecord } from '../room-types/service.ts';
import { explicitOccupancyErrors, parseAdjust } from './explicit-occupancies.ts';
import type { CreateRatePlanBody, DerivationSchema } from './model.ts';
import type { Derivation, NewRatePlan, RatePlanRecord } from './service.ts';

/**
 * Turns a POST rate_plans body into a creation, with the spec's refusals in this order: a derivation
 * without parent, a parent that resolves nowhere or on another property, unknown room types, explicit
 * occupancies with other than one room type, then field-level problems (422 validation_error).
 */
export async function createRequest(
  db: Db,
  principal: Principal,
  property: PropertyRow,
  body: typeof CreateRatePlanBody.static,
): Promise<NewRatePlan> {
  if (body.derivation && !body.parent_rate_plan_id) throw new ApiError('errors.qc.derivation_requires_parent');
  const parent = body.parent_rate_plan_id
    ? await parentPlan(db, principal, property, body.parent_rate_plan_id)
    : undefined;
  const roomTypes = await roomTypesOf(db, property, body.room_type_ids ?? [], parent);
  if (body.occupancies && roomTypes.length !== 1) throw new ApiError('errors.qc.occupancies_require_single_room');

  const errors: FieldErrors = {};
  const add = (field: string, rule: string) => {
    errors[field] = [...(errors[field] ?? []), `customer.rate_plan.messages.${rule}`];
  };
  if (!roomTypes.length) add('room_type_ids', body.room_type_ids ? 'min_items' : 'required');
  if (!parent && !body.sell_type) add('sell_type', 'required');
  if (parent && body.sell_type && body.sell_type !== parent.sell_type) add('sell_type', 'differs_from_parent');
  if (parent && body.occupancies) add('occupancies', 'not_allowed_on_child');
  if (body.occupancies) Object.assign(errors, explicitOccupancyErrors(body.occupancies, 'rate_plan'));
  const derivation = parent ? derivationOf(body.derivation, add) : undefined;
  if (Object.keys(errors).length) throw validationError(errors);

  return {
    title: body.title,
    nameTr: body.name_tr,
    roomTypes,
    sellType: parent?.sell_type ?? body.sell_type ?? 'per_room',
    mealPlan: body.meal_plan,
    occupancies: body.occupancies,
    parent,
    derivation,
    paymentPolicyId: body.payment_policy_id,
    cancellationPolicyId: body.cancellation_policy_id,
    partnerCode: body.partner_code,
  };
}

async function parentPlan(
  db: Db,
  principal: Principal,
  property: PropertyRow,
  segment: string,
): Promise<RatePlanRecord> {
  const parent = await findChild<RatePlanRecord>(db, 'rate_plans', property.id, segment);
  if (parent) {
    if (parent.parent_id !== null) throw fieldError('rate_plan', 'parent_rate_plan_id', 'parent_is_child');
    return parent;
  }
  // Partner codes are per property, so only an external id can name a plan elsewhere in the customer's group.
  const [elsewhere] = isUuid(segment)
    ? await db.sql<{ id: number }>`
        select rp.id from rate_plans rp join properties p on p.id = rp.property_id
        where rp.external_id = ${segment} and p.customer_id = ${principal.customerId} and rp.deleted_at is null`
    : [];
  if (elsewhere) throw new ApiError('errors.qc.parent_rate_plan_not_on_property');
  throw new ApiError('errors.qc.parent_rate_plan_not_found');
}

/** Room types by external id or partner code; a child plan without a list takes all of its parent's rooms. */
async function roomTypesOf(
  db: Db,
  property: PropertyRow,
  segments: readonly string[],
  parent: RatePlanRecord | undefined,
) {
  if (!segments.length && parent) {
    return db.sql<RoomTypeRecord>`
      select r.* from rate_plan_rooms rp join room_types r on r.id = rp.room_type_id
      where rp.rate_plan_id = ${parent.id} and rp.deleted_at is null and r.deleted_at is null order by r.created_at, r.id`;
  }
  const found = await findChildren<RoomTypeRecord>(db, 'room_types', [property.id], segments);
  const rooms: RoomTypeRecord[] = [];
  for (const room of found) {
    if (!room) throw new ApiError('errors.qc.unknown_room_type');
    if (!rooms.some((r) => r.id === room.id)) rooms.push(room);
  }
  return rooms;
}

type DerivationInput = typeof DerivationSchema.static;

/** The wire block as stored: `{percent, periods?}`; no block means the parent's values unchanged (0%). */
function derivationOf(input: DerivationInput | undefined, add: (field: string, rule: string) => void): Derivation {
  if (!input) return { percent: 0 };
  const percent = percentOf(input, 'derivation', add);
  const derivation: Derivation = { percent: percent ?? 0 };
  if (input.periods?.length) {
    derivation.periods = input.periods.map((p, i) => {
      const field = `derivation.periods.${i}`;
      // The schema checks the shape only (DayText), so an impossible day is named with the period's other errors.
      const days = [isDay(p.from), isDay(p.to)];
      if (!days[0]) add(`${field}.from`, 'format');
      if (!days[1]) add(`${field}.to`, 'format');
      if (days[0] && days[1] && p.from > p.to) add(`${field}.to`, 'before_from');
      return { from: p.from, to: p.to, percent: percentOf(p, field, add) ?? 0 };
    });
  }
  return derivation;
}

function percentOf(
  input: { percent?: number; adjust?: string },
  field: string,
  add: (field: string, rule: string) => void,
): number | undefined {
  if ((input.percent === undefined) === (input.adjust === undefined)) {
    add(`${field}.percent`, 'percent_or_adjust');
    return undefined;
  }
  if (input.percent !== undefined) return input.percent;
  const [name, value] = parseAdjust(input.adjust ?? '') ?? ['increase_by_percent', 0];
  const percent = name === 'decrease_by_percent' ? -value : value;
  if (percent <= -100 || percent > 1000) add(`${field}.adjust`, 'range');
  return percent;
}
