import type { Db } from '../core/db/db.ts';
import type { RatePlanRecord } from './service.ts';
import type { OccupancyEntry } from './vocabulary.ts';

/** A rate plan with the external ids its view shows. */
export interface PlanRow extends RatePlanRecord {
  parent_external_id: string | null;
  payment_policy_external_id: string | null;
  cancellation_policy_external_id: string | null;
}

/** One live (rate plan x room type) pair with what its partner-facing entry shows. */
export interface PairRow extends PlanRow {
  room_external_id: string;
  occupancies: OccupancyEntry[];
  explicit_occupancies: boolean;
}

const PLAN_REFS = `parent.external_id as parent_external_id,
    pp.external_id as payment_policy_external_id, cp.external_id as cancellation_policy_external_id`;
const PLAN_JOINS = `left join rate_plans parent on parent.id = p.parent_id
  left join payment_policies pp on pp.id = p.payment_policy_id
  left join cancellation_policies cp on cp.id = p.cancellation_policy_id`;

const PAIRS = `
  select p.*, ${PLAN_REFS}, r.external_id as room_external_id, rp.occupancies, rp.explicit_occupancies
  from rate_plan_rooms rp
  join rate_plans p on p.id = rp.rate_plan_id
  join room_types r on r.id = rp.room_type_id
  ${PLAN_JOINS}
  where p.property_id = $1 and p.deleted_at is null and rp.deleted_at is null and r.deleted_at is null`;
const ORDER = 'order by p.created_at, p.id, r.created_at, r.id';

export async function countPairs(db: Db, propertyId: number): Promise<number> {
  const [row] = await db.sql<{ n: number }>`
    select count(*)::int as n from rate_plan_rooms rp
    join rate_plans p on p.id = rp.rate_plan_id join room_types r on r.id = rp.room_type_id
    where p.property_id = ${propertyId} and p.deleted_at is null and rp.deleted_at is null and r.deleted_at is null`;
  return row?.n ?? 0;
}

export function pairsOfProperty(db: Db, propertyId: number, limit: number, offset: number): Promise<PairRow[]> {
  return db.query<PairRow>(`${PAIRS} ${ORDER} limit $2 offset $3`, [propertyId, limit, offset]);
}

export function pairsOfPlan(db: Db, propertyId: number, ratePlanId: number): Promise<PairRow[]> {
  return db.query<PairRow>(`${PAIRS} and p.id = $2 ${ORDER}`, [propertyId, ratePlanId]);
}

export async function planRow(db: Db, ratePlanId: number): Promise<PlanRow> {
  const [row] = await db.query<PlanRow>(`select p.*, ${PLAN_REFS} from rate_plans p ${PLAN_JOINS} where p.id = $1`, [
    ratePlanId,
  ]);
  if (!row) throw new Error(`rate plan ${ratePlanId} vanished`);
  return row;
}
