import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../core/db/db.ts';
import { ageGroupsOf } from './age-groups.ts';
import { type OccupancyEntry, type SellType, vocabulary } from './vocabulary.ts';

interface StoredPair {
  rate_plan_id: number;
  room_type_id: number;
  parent_id: number | null;
  sell_type: SellType;
  occupancies: OccupancyEntry[];
  explicit_occupancies: boolean;
  regular_beds: number;
  extra_beds: number;
  extra_beds_children_only: number;
}

/**
 * After the property's age brackets changed, every live pair's stored vocabulary is derived again, so the
 * next quote and the next rate plan read see the new brackets (child codes and the ages they cover). A
 * computed vocabulary is recomputed; an explicit one keeps its codes and their pricing, restricted to the
 * codes the room still offers and carrying the new ages (codes it gains back need a pricing-model reset).
 * Child plans copy their parent's pair, as on creation. Call under the property's structure lock.
 * Returns how many pairs changed.
 */
export async function refreshVocabularies(tx: Db, propertyId: number): Promise<number> {
  const ageGroups = await ageGroupsOf(tx, propertyId);
  const pairs = await tx.sql<StoredPair>`
    select rp.rate_plan_id, rp.room_type_id, p.parent_id, p.sell_type, rp.occupancies, rp.explicit_occupancies,
      r.regular_beds, r.extra_beds, r.extra_beds_children_only
    from rate_plan_rooms rp join rate_plans p on p.id = rp.rate_plan_id join room_types r on r.id = rp.room_type_id
    where p.property_id = ${propertyId} and rp.deleted_at is null and p.deleted_at is null and r.deleted_at is null
    order by p.id, r.id`;
  const next = new Map<string, { occupancies: OccupancyEntry[]; explicit: boolean }>();
  const key = (planId: number, roomId: number) => `${planId}|${roomId}`;
  for (const pair of pairs.filter((p) => p.parent_id === null)) {
    const computed = vocabulary(
      {
        regularBeds: pair.regular_beds,
        extraBeds: pair.extra_beds,
        extraBedsChildrenOnly: pair.extra_beds_children_only,
      },
      pair.sell_type,
      ageGroups,
    );
    const kept = pair.explicit_occupancies ? rebase(pair.occupancies, computed) : undefined;
    next.set(key(pair.rate_plan_id, pair.room_type_id), { occupancies: kept ?? computed, explicit: !!kept });
  }
  let changed = 0;
  for (const pair of pairs) {
    const target = next.get(key(pair.parent_id ?? pair.rate_plan_id, pair.room_type_id));
    if (!target) continue;
    const explicit = pair.parent_id === null ? target.explicit : false;
    if (isDeepStrictEqual(pair.occupancies, target.occupancies) && explicit === pair.explicit_occupancies) continue;
    await tx.sql`update rate_plan_rooms set occupancies = ${target.occupancies}::jsonb, explicit_occupancies = ${explicit}
      where rate_plan_id = ${pair.rate_plan_id} and room_type_id = ${pair.room_type_id}`;
    changed++;
  }
  return changed;
}

/** An explicit list on a new computed vocabulary: its own entries, for the codes still offered, with their ages. */
function rebase(stored: readonly OccupancyEntry[], computed: readonly OccupancyEntry[]): OccupancyEntry[] | undefined {
  const out = computed.flatMap((c) => {
    const own = stored.find((s) => s.code === c.code);
    if (!own) return [];
    const { from_age: _from, to_age: _to, ...rest } = own;
    return [{ ...rest, ...(c.from_age === undefined ? {} : { from_age: c.from_age, to_age: c.to_age }) }];
  });
  return out.length ? out : undefined;
}
