import type { ChildDerivation, PriceCode } from '../pricing/price-engine.ts';
import type { Db } from '../server/core/db/db.ts';
import { findChildren, SegmentIndex } from '../server/core/resolve.ts';
import type { PairTarget } from './calendar-writes.ts';

/** A plan's sell type as `rate_plans.sell_type` stores it (server/rate-plans/vocabulary.ts SELL_TYPES). */
type SellType = 'per_room' | 'per_person' | 'per_occupancy';

/**
 * A property's structure as one calendar turn sees it: room types, rate plans and their pairs with each
 * pair's vocabulary. Loaded once per push (three small queries) and used to resolve every row, so a batch
 * of 1000 rows never costs 1000 lookups. Ids resolve like URL segments: external id first, partner code second.
 */
export interface StructureRoomType {
  id: number;
  externalId: string;
  partnerCode: string | null;
}

export interface StructureRatePlan {
  id: number;
  externalId: string;
  partnerCode: string | null;
  sellType: SellType;
  parentId: number | null;
  /** External id of the parent plan, even when the parent has been deleted. */
  parentExternalId: string | null;
  derivation: ChildDerivation | null;
}

export interface StructurePair {
  plan: StructureRatePlan;
  roomType: StructureRoomType;
  target: PairTarget;
  /** `<rate plan id>:<room type id>`: the pair's key in a batch's day-rows. */
  key: string;
  occupancies: PriceCode[];
  /** Code to kind; empty when the pair has no configured vocabulary (then no code check applies). */
  kinds: Map<string, string>;
  /** The codes a write may set: the manual ones. */
  manualCodes: string[];
  /** For a child plan: its parent still exists and sells this room type, so prices belong there. */
  parentMapped: boolean;
}

/** Room types and rate plans of a loaded structure resolve by the one rule (server/core/resolve.ts). */
const referable = (r: { externalId: string; partnerCode: string | null }) => ({
  external_id: r.externalId,
  partner_code: r.partnerCode,
});

export class PropertyStructure {
  readonly #roomTypes = new SegmentIndex<StructureRoomType>(referable);
  readonly #roomTypesById = new Map<number, StructureRoomType>();
  readonly #ratePlans = new SegmentIndex<StructureRatePlan>(referable);
  readonly #pairs = new Map<string, StructurePair>();
  readonly #pairsByPlan = new Map<number, StructurePair[]>();

  constructor(roomTypes: StructureRoomType[], ratePlans: StructureRatePlan[], pairs: StructurePair[]) {
    for (const r of roomTypes) {
      this.#roomTypes.add(r);
      this.#roomTypesById.set(r.id, r);
    }
    for (const p of ratePlans) this.#ratePlans.add(p);
    for (const pair of pairs) {
      this.#pairs.set(pair.key, pair);
      const list = this.#pairsByPlan.get(pair.plan.id) ?? [];
      list.push(pair);
      this.#pairsByPlan.set(pair.plan.id, list);
    }
  }

  roomType(segment: string): StructureRoomType | undefined {
    return this.#roomTypes.find(segment);
  }

  /** A room type of the property by its internal id (legacy `room_id`). */
  roomTypeById(id: number): StructureRoomType | undefined {
    return this.#roomTypesById.get(id);
  }

  ratePlan(segment: string): StructureRatePlan | undefined {
    return this.#ratePlans.find(segment);
  }

  pair(ratePlanId: number, roomTypeId: number): StructurePair | undefined {
    return this.#pairs.get(`${ratePlanId}:${roomTypeId}`);
  }

  pairsOf(ratePlanId: number): StructurePair[] {
    return this.#pairsByPlan.get(ratePlanId) ?? [];
  }
}

interface RatePlanDbRow {
  id: number;
  external_id: string;
  partner_code: string | null;
  sell_type: SellType;
  parent_id: number | null;
  parent_external_id: string | null;
  derivation: ChildDerivation | null;
}

export async function loadStructure(db: Db, propertyId: number): Promise<PropertyStructure> {
  const roomRows = await db.sql<{ id: number; external_id: string; partner_code: string | null }>`
    select id, external_id, partner_code from room_types where property_id = ${propertyId} and deleted_at is null`;
  const planRows = await db.sql<RatePlanDbRow>`
    select p.id, p.external_id, p.partner_code, p.sell_type, p.parent_id, parent.external_id as parent_external_id, p.derivation
    from rate_plans p left join rate_plans parent on parent.id = p.parent_id
    where p.property_id = ${propertyId} and p.deleted_at is null`;
  const pairRows = await db.sql<{ rate_plan_id: number; room_type_id: number; occupancies: PriceCode[] }>`
    select rp.rate_plan_id, rp.room_type_id, rp.occupancies
    from rate_plan_rooms rp join rate_plans p on p.id = rp.rate_plan_id
    where p.property_id = ${propertyId} and p.deleted_at is null and rp.deleted_at is null
    order by rp.rate_plan_id, rp.room_type_id`;

  const roomTypes = new Map(
    roomRows.map((r) => [r.id, { id: r.id, externalId: r.external_id, partnerCode: r.partner_code }] as const),
  );
  const plans = new Map(
    planRows.map(
      (p) =>
        [
          p.id,
          {
            id: p.id,
            externalId: p.external_id,
            partnerCode: p.partner_code,
            sellType: p.sell_type,
            parentId: p.parent_id,
            parentExternalId: p.parent_external_id,
            derivation: p.derivation,
          },
        ] as const,
    ),
  );
  const live = new Set(pairRows.map((p) => `${p.rate_plan_id}:${p.room_type_id}`));
  const pairs: StructurePair[] = [];
  for (const row of pairRows) {
    const plan = plans.get(row.rate_plan_id);
    const roomType = roomTypes.get(row.room_type_id);
    if (!plan || !roomType) continue;
    const occupancies = Array.isArray(row.occupancies) ? row.occupancies : [];
    pairs.push({
      plan,
      roomType,
      target: { ratePlanId: plan.id, roomTypeId: roomType.id },
      key: `${plan.id}:${roomType.id}`,
      occupancies,
      kinds: new Map(occupancies.map((o) => [o.code, o.kind])),
      manualCodes: occupancies.filter((o) => o.kind === 'manual').map((o) => o.code),
      parentMapped: plan.parentId !== null && live.has(`${plan.parentId}:${roomType.id}`),
    });
  }
  return new PropertyStructure([...roomTypes.values()], [...plans.values()], pairs);
}

/**
 * Which of these segments name a room type or rate plan of ANOTHER property the caller may touch. A batch
 * naming one is a multi-property batch, not an unknown id; properties outside the caller's allow-list stay
 * invisible (their ids read as unknown).
 */
export async function foreignSegments(
  db: Db,
  visiblePropertyIds: readonly number[],
  propertyId: number,
  segments: { roomTypes: readonly string[]; ratePlans: readonly string[] },
): Promise<{ roomTypes: Set<string>; ratePlans: Set<string> }> {
  const others = visiblePropertyIds.filter((id) => id !== propertyId);
  const find = async (table: 'room_types' | 'rate_plans', list: readonly string[]) => {
    if (!others.length || !list.length) return new Set<string>();
    const found = await findChildren(db, table, others, list);
    return new Set(list.filter((_, i) => found[i]));
  };
  return {
    roomTypes: await find('room_types', segments.roomTypes),
    ratePlans: await find('rate_plans', segments.ratePlans),
  };
}
