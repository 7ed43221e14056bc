import type { Db } from '../core/db/db.ts';
import { recordEvent } from '../core/outbox.ts';
import type { PropertyRow } from '../core/resolve.ts';
import type { RoomTypeRecord } from '../room-types/service.ts';
import type { WireOccupancy } from './explicit-occupancies.ts';
import { computedPairs, lockStructure, type PairRecord, type RatePlanRecord } from './service.ts';
import type { SellType } from './vocabulary.ts';

export interface PricingModelResult {
  pairsUpdated: number;
  /** True when the explicit list was applied to at least one pair (nothing valid left means computed). */
  explicitOccupancies: boolean;
}

/**
 * Sets a plan's sell type and re-derives every live pair's vocabulary from its room (narrowed to an
 * explicit list when one is given). Used by PATCH `sell_type` (no list: explicit occupancies are
 * discarded, so a flip and back restores the computed vocabulary) and by PUT pricing-model. Child plans
 * sell like their parent: their read-only copies follow. Writing the same model twice changes nothing
 * and records no event. The caller refuses child plans (they are skipped, spec 4.3 rule 5).
 */
export async function applyPricingModel(
  tx: Db,
  property: PropertyRow,
  ratePlanId: number,
  sellType: SellType,
  explicit: readonly WireOccupancy[] | undefined,
): Promise<PricingModelResult> {
  await lockStructure(tx, property.id);
  // Read under the lock: the sell type seen before it may already be stale.
  const [plan] = await tx.sql<RatePlanRecord>`select * from rate_plans where id = ${ratePlanId}`;
  if (!plan) throw new Error(`rate plan ${ratePlanId} vanished`);
  const rooms = await tx.sql<RoomTypeRecord & { current: PairRecord }>`
    select r.*, json_build_object('room_type_id', rp.room_type_id, 'occupancies', rp.occupancies,
      'explicit_occupancies', rp.explicit_occupancies) as current
    from rate_plan_rooms rp join room_types r on r.id = rp.room_type_id
    where rp.rate_plan_id = ${plan.id} and rp.deleted_at is null and r.deleted_at is null
    order by r.created_at, r.id`;
  const pairs = await computedPairs(tx, property.id, rooms, sellType, explicit);
  const changedPairs = pairs.filter((pair, i) => !samePair(pair, rooms[i]?.current));
  if (sellType !== plan.sell_type || changedPairs.length) {
    await tx.sql`update rate_plans set sell_type = ${sellType}, updated_at = now() where id = ${plan.id}`;
    for (const pair of changedPairs) {
      await tx.sql`update rate_plan_rooms set occupancies = ${pair.occupancies}::jsonb,
        explicit_occupancies = ${pair.explicit_occupancies}
        where rate_plan_id = ${plan.id} and room_type_id = ${pair.room_type_id}`;
    }
    const roomIds = rooms.map((r) => r.external_id);
    await recordUpdated(tx, property, plan.external_id, roomIds, sellType, plan.sell_type, null);
    await followParent(tx, property, plan, sellType, pairs);
  }
  return { pairsUpdated: pairs.length, explicitOccupancies: pairs.some((p) => p.explicit_occupancies) };
}

/** Child plans mirror their parent's sell type and vocabulary (read-only copies, prices come from it). */
async function followParent(
  tx: Db,
  property: PropertyRow,
  parent: RatePlanRecord,
  sellType: SellType,
  pairs: PairRecord[],
) {
  const children = await tx.sql<{ id: number; external_id: string; sell_type: SellType }>`
    select id, external_id, sell_type from rate_plans where parent_id = ${parent.id} and deleted_at is null`;
  for (const child of children) {
    await tx.sql`update rate_plans set sell_type = ${sellType}, updated_at = now() where id = ${child.id}`;
    const rooms = await tx.sql<{ room_type_id: number; external_id: string }>`
      select rp.room_type_id, r.external_id from rate_plan_rooms rp join room_types r on r.id = rp.room_type_id
      where rp.rate_plan_id = ${child.id} and rp.deleted_at is null`;
    for (const room of rooms) {
      const pair = pairs.find((p) => p.room_type_id === room.room_type_id);
      if (!pair) continue;
      await tx.sql`update rate_plan_rooms set occupancies = ${pair.occupancies}::jsonb
        where rate_plan_id = ${child.id} and room_type_id = ${room.room_type_id}`;
    }
    const roomIds = rooms.map((r) => r.external_id);
    await recordUpdated(tx, property, child.external_id, roomIds, sellType, child.sell_type, parent.external_id);
  }
}

function recordUpdated(
  tx: Db,
  property: PropertyRow,
  ratePlanId: string,
  roomTypeIds: string[],
  sellType: SellType,
  previousSellType: SellType,
  parentRatePlanId: string | null,
) {
  return recordEvent(tx, {
    type: 'rate_plan.updated',
    customerId: property.customer_id,
    propertyId: property.id,
    data: {
      property_id: property.external_id,
      rate_plan_id: ratePlanId,
      room_type_ids: roomTypeIds,
      sell_type: sellType,
      previous_sell_type: previousSellType,
      parent_rate_plan_id: parentRatePlanId,
    },
  });
}

/** jsonb reorders object keys, so compare through a key-sorted rendering. */
function samePair(next: PairRecord, current: PairRecord | undefined): boolean {
  if (!current) return false;
  return (
    next.explicit_occupancies === current.explicit_occupancies &&
    canonical(next.occupancies) === canonical(current.occupancies)
  );
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
