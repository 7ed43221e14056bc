import type { Db } from '../core/db/db.ts';
import { fieldError } from '../core/http/api-error.ts';
import { nameTrOf } from '../core/name-tr.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { uniquePartnerCode } from '../properties/partner-code.ts';
import type { RoomTypeRecord } from '../room-types/service.ts';
import { ageGroupsOf } from './age-groups.ts';
import { applyExplicit, type WireOccupancy } from './explicit-occupancies.ts';
import { policiesFor } from './policies.ts';
import { type OccupancyEntry, type SellType, vocabulary } from './vocabulary.ts';

/** rate_plans.derivation of a child plan: the parent's value times (1 + percent/100), per check-in period. */
export interface Derivation {
  percent: number;
  periods?: { from: string; to: string; percent: number }[];
}

export interface RatePlanRecord {
  id: number;
  external_id: string;
  property_id: number;
  name: string;
  name_tr: Record<string, string>;
  sell_type: SellType;
  meal_plan: string;
  parent_id: number | null;
  derivation: Derivation | null;
  payment_policy_id: number | null;
  cancellation_policy_id: number | null;
  partner_code: string | null;
}

export interface PairRecord {
  room_type_id: number;
  occupancies: OccupancyEntry[];
  explicit_occupancies: boolean;
}

export interface NewRatePlan {
  title: string;
  nameTr?: Record<string, string>;
  roomTypes: RoomTypeRecord[];
  /** Ignored for a child plan, which sells like its parent. */
  sellType: SellType;
  mealPlan?: string;
  /** Only with exactly one room type (checked by the caller, which owns the error key). */
  occupancies?: WireOccupancy[];
  parent?: RatePlanRecord;
  derivation?: Derivation;
  paymentPolicyId?: string | null;
  cancellationPolicyId?: string | null;
  partnerCode?: string | null;
}

/**
 * Creates a rate plan with one pair per room type, each pair's vocabulary computed from its room (or, for
 * a child plan, copied read-only from the parent's pair for the same room). Used by POST rate_plans and
 * the demo. The property row is locked first: structure writes on one property are serialized, so two
 * creations never seed two sets of placeholder policies.
 */
export async function createRatePlan(tx: Db, property: PropertyRow, input: NewRatePlan): Promise<RatePlanRecord> {
  await lockStructure(tx, property.id);
  const parent = input.parent;
  const sellType = parent ? parent.sell_type : input.sellType;
  const pairs = parent
    ? await childPairs(tx, parent, input.roomTypes)
    : await computedPairs(tx, property.id, input.roomTypes, sellType, input.occupancies);
  const policies = await policiesFor(tx, property, input);
  const plan = await uniquePartnerCode(async () => {
    const [row] = await tx.sql<RatePlanRecord>`
      insert into rate_plans (property_id, name, name_tr, sell_type, meal_plan, parent_id, derivation,
        payment_policy_id, cancellation_policy_id, partner_code)
      values (${property.id}, ${input.title}, ${nameTrOf(input.title, input.nameTr)}, ${sellType}, ${input.mealPlan ?? 'none'},
        ${parent?.id ?? null}, ${parent ? (input.derivation ?? { percent: 0 }) : null}, ${policies.paymentPolicyId},
        ${policies.cancellationPolicyId}, ${input.partnerCode ?? null})
      returning *`;
    return row;
  });
  for (const pair of pairs) {
    await tx.sql`insert into rate_plan_rooms (rate_plan_id, room_type_id, occupancies, explicit_occupancies)
      values (${plan.id}, ${pair.room_type_id}, ${pair.occupancies}::jsonb, ${pair.explicit_occupancies})`;
  }
  await recordEvent(tx, {
    type: 'rate_plan.created',
    customerId: property.customer_id,
    propertyId: property.id,
    data: {
      property_id: property.external_id,
      rate_plan_id: plan.external_id,
      room_type_ids: input.roomTypes.map((r) => r.external_id),
      sell_type: sellType,
      parent_rate_plan_id: parent?.external_id ?? null,
    },
  });
  return plan;
}

/**
 * Serializes structure writes on one property (rate plan creation, pricing-model resets, PATCH): the property
 * row is locked first, always, so writers queue in one order and placeholder policies are seeded once.
 */
export async function lockStructure(tx: Db, propertyId: number): Promise<void> {
  await tx.sql`select id from properties where id = ${propertyId} for update`;
}

/** Each room's vocabulary for the sell type, narrowed to an explicit list when one is given. */
export async function computedPairs(
  db: Db,
  propertyId: number,
  rooms: readonly RoomTypeRecord[],
  sellType: SellType,
  explicit: readonly WireOccupancy[] | undefined,
): Promise<PairRecord[]> {
  const ageGroups = await ageGroupsOf(db, propertyId);
  return rooms.map((room) => {
    const computed = vocabulary(
      {
        regularBeds: room.regular_beds,
        extraBeds: room.extra_beds,
        extraBedsChildrenOnly: room.extra_beds_children_only,
      },
      sellType,
      ageGroups,
    );
    const chosen = explicit ? applyExplicit(computed, explicit) : undefined;
    return { room_type_id: room.id, occupancies: chosen ?? computed, explicit_occupancies: !!chosen };
  });
}

async function childPairs(db: Db, parent: RatePlanRecord, rooms: readonly RoomTypeRecord[]): Promise<PairRecord[]> {
  const parentPairs = await db.sql<PairRecord>`
    select room_type_id, occupancies, explicit_occupancies from rate_plan_rooms
    where rate_plan_id = ${parent.id} and deleted_at is null`;
  return rooms.map((room, i) => {
    const pair = parentPairs.find((p) => p.room_type_id === room.id);
    if (!pair) throw fieldError('rate_plan', `room_type_ids.${i}`, 'not_on_parent');
    return { room_type_id: room.id, occupancies: pair.occupancies, explicit_occupancies: false };
  });
}
