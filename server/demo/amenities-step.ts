import { replaceAmenities } from '../amenities/assignments.ts';
import type { DemoContext } from './demo.ts';

/** Amenities on the live property (paid on-site parking, sauna) and free Wi-Fi in its first room type. */
export async function amenitiesDemoStep(ctx: DemoContext): Promise<void> {
  const [room] = await ctx.deps.db.sql<{ id: number; external_id: string }>`
    select id, external_id from room_types where property_id = ${ctx.live.id} and deleted_at is null order by id limit 1`;
  await ctx.deps.db.tx(async (tx) => {
    await replaceAmenities(tx, { kind: 'property', property: ctx.live }, [
      { id: 'HAC.68', options: { charge: 'paid', location: 'on_site' } },
      { id: 'HAC.79' },
      { id: 'HAC.1' },
    ]);
    if (room) {
      await replaceAmenities(
        tx,
        { kind: 'room_type', property: ctx.live, roomTypeId: room.id, roomTypeExternalId: room.external_id },
        [{ id: 'RMA.123', options: { charge: 'free' } }, { id: 'RMA.50' }],
      );
    }
  });
}
