import { t } from 'elysia';
import { NameTrSchema } from '../core/name-tr.ts';
import { ROOM_KINDS } from './service.ts';

const PartnerCode = t.String({ minLength: 1, maxLength: 100 });
const Count = (description: string) => t.Integer({ minimum: 0, maximum: 50, description });

export const RoomTypeParams = t.Object({ property: t.String(), roomType: t.String() });

export const CreateRoomTypeBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(NameTrSchema),
  kind: t.Optional(
    t.Union(
      ROOM_KINDS.map((k) => t.Literal(k)),
      { description: 'Defaults from `type`, else `room`' },
    ),
  ),
  type: t.Optional(
    t.Union([t.Literal(4), t.Literal(5), t.Literal(6), t.Literal(7)], {
      description: 'Legacy type: 4 apartment, 5 villa, 6 studio, 7 room; defaults from `kind`',
    }),
  ),
  qty: t.Optional(t.Integer({ minimum: 0, maximum: 10000, description: 'Number of units; default 1' })),
  regular_beds: t.Optional(Count('Default 2')),
  extra_beds: t.Optional(Count('Default 0')),
  extra_beds_children_only: t.Optional(Count('How many of the extra beds only children may use; default 0')),
  no_beds: t.Optional(Count('Places without a bed (cots); default 0')),
  occupancy: t.Optional(
    t.Object({
      adults: t.Optional(Count('Default: regular beds plus the extra beds open to adults')),
      children: t.Optional(Count('Default: extra beds')),
      infants: t.Optional(Count('Default: no_beds')),
    }),
  ),
  description: t.Optional(t.String({ maxLength: 20000, description: 'HTML text' })),
  sqm_area: t.Optional(t.Nullable(t.Number({ minimum: 0 }))),
  images: t.Optional(t.Array(t.String({ pattern: '^https://[^\\s]+$', maxLength: 2000 }), { maxItems: 100 })),
  partner_code: t.Optional(PartnerCode),
  partner_name: t.Optional(t.String({ maxLength: 255 })),
});

export const UpdateRoomTypeBody = t.Object({
  partner_code: t.Optional(t.Nullable(PartnerCode)),
  partner_name: t.Optional(t.Nullable(t.String({ maxLength: 255 }))),
});

export const ROOM_TYPE_SEGMENT = 'Path segments take the external id or the partner code (external id tried first).';

/** A room type as partners see it (server/room-types/view.ts). */
export const RoomTypeSchema = t.Object({
  external_room_type_id: t.String({ format: 'uuid' }),
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  name_tr: t.Record(t.String(), t.String()),
  kind: t.String(),
  qty: t.Integer(),
  occupancy: t.Object({ adults: t.Integer(), children: t.Integer(), infants: t.Integer() }),
  partner_code: t.Nullable(t.String()),
  partner_name: t.Nullable(t.String()),
  type: t.Integer({ description: 'Legacy type: 4 apartment, 5 villa, 6 studio, 7 room' }),
  description: t.String(),
  sqm_area: t.Nullable(t.Number()),
  regular_beds: t.Integer(),
  extra_beds: t.Integer(),
  extra_beds_children_only: t.Integer(),
  no_beds: t.Integer(),
  images: t.Array(t.String()),
});
