import type { PropertyRow } from '../core/resolve.ts';
import { createRatePlan, type NewRatePlan, type RatePlanRecord } from '../rate-plans/service.ts';
import { createRoomType, type NewRoomType, type RoomTypeRecord } from '../room-types/service.ts';
import type { DemoContext } from './demo.ts';

/**
 * The structure part of the demo (issue 4): on the live property a double room (2 regular beds + 1 extra)
 * and a larger apartment, with per_room, per_person and per_occupancy plans on both plus a child of the
 * per_room plan at -10%; on the shadow property one room type and one per_room plan. Attaches
 * `room_types[]` and `rate_plans[]` (one entry per pair) to each property of the demo output.
 */
export async function structureDemoStep(ctx: DemoContext): Promise<void> {
  await ctx.deps.db.tx(async (tx) => {
    const live = await build(
      tx,
      ctx.live,
      [
        {
          name: 'Double Room',
          partnerCode: 'DBL',
          regularBeds: 2,
          extraBeds: 1,
          sqmArea: 22,
          description: '<p>Sea-view double room.</p>',
        },
        {
          name: 'Family Apartment',
          kind: 'apartment',
          partnerCode: 'APT',
          regularBeds: 4,
          extraBeds: 2,
          noBeds: 1,
          qty: 3,
          sqmArea: 48,
        },
      ],
      (rooms) => [
        {
          title: 'Flexible Room Rate',
          partnerCode: 'BAR',
          sellType: 'per_room',
          mealPlan: 'breakfast',
          roomTypes: rooms,
        },
        { title: 'Per Person Rate', partnerCode: 'PP', sellType: 'per_person', roomTypes: rooms },
        { title: 'Occupancy Rate', partnerCode: 'OCC', sellType: 'per_occupancy', roomTypes: rooms },
      ],
      (plans, rooms) => {
        const flexible = plans[0] as RatePlanRecord;
        return [
          {
            title: 'Non-refundable (-10%)',
            partnerCode: 'NRF',
            sellType: 'per_room',
            roomTypes: rooms,
            parent: flexible,
            derivation: { percent: -10 },
          },
        ];
      },
    );
    const shadow = await build(
      tx,
      ctx.shadow,
      [{ name: 'Standard Room', partnerCode: 'STD', regularBeds: 2 }],
      (rooms) => [{ title: 'Standard Rate', partnerCode: 'STD-BAR', sellType: 'per_room', roomTypes: rooms }],
      () => [],
    );
    Object.assign(ctx.demo.properties[0] ?? {}, live);
    Object.assign(ctx.demo.properties[1] ?? {}, shadow);
  });
}

type Tx = Parameters<Parameters<DemoContext['deps']['db']['tx']>[0]>[0];

async function build(
  tx: Tx,
  property: PropertyRow,
  roomInputs: NewRoomType[],
  planInputs: (rooms: RoomTypeRecord[]) => NewRatePlan[],
  childInputs: (plans: RatePlanRecord[], rooms: RoomTypeRecord[]) => NewRatePlan[],
) {
  const rooms: RoomTypeRecord[] = [];
  for (const input of roomInputs) rooms.push(await createRoomType(tx, property, input));
  const entries: Record<string, unknown>[] = [];
  const plans: RatePlanRecord[] = [];
  const add = async (input: NewRatePlan) => {
    const plan = await createRatePlan(tx, property, input);
    plans.push(plan);
    for (const room of input.roomTypes) {
      entries.push({
        id: plan.external_id,
        name: plan.name,
        partner_code: plan.partner_code,
        sell_type: plan.sell_type,
        room_type_id: room.external_id,
        parent_rate_plan_id: input.parent?.external_id ?? null,
      });
    }
  };
  for (const input of planInputs(rooms)) await add(input);
  for (const input of childInputs([...plans], rooms)) await add(input);
  return {
    room_types: rooms.map((r) => ({
      id: r.external_id,
      name: r.name,
      partner_code: r.partner_code,
      legacy_room_id: r.id,
      regular_beds: r.regular_beds,
      extra_beds: r.extra_beds,
    })),
    rate_plans: entries,
  };
}
