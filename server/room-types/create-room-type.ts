import { ok, okSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { CreateRoomTypeBody, RoomTypeSchema } from './model.ts';
import { createRoomType as insertRoomType, type RoomKind } from './service.ts';
import { roomTypeView } from './view.ts';

export const createRoomType = defineRoute({
  name: 'qc.room_types.create',
  method: 'POST',
  path: '/properties/:property/room_types',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'room_type',
  summary: 'Create a room type',
  tags: ['room types'],
  description: [
    'Creates the room type record and answers 201 with it, fresh `id` included, in the same request.',
    'Beyond `name` every field is optional: `kind` and the legacy `type` (4 apartment, 5 villa, 6 studio,',
    '7 room) default from each other, and sent together they must agree (422 rule `differs_from_kind` on',
    '`type` otherwise: `kind` villa with `type` 6 would read as a villa here and a studio on the legacy API),',
    'beds default to 2 regular and no extra, `occupancy` defaults from the beds, `images` must be absolute',
    'HTTPS URLs. The beds drive the occupancy vocabulary of every rate plan',
    'pair of this room (see the rate plan endpoints). A `partner_code` used by another room type of the',
    'property: 409 `errors.qc.partner_code_taken`. Record and mapping commit in one transaction, so',
    '`errors.qc.room_created_map_failed` cannot occur.',
  ].join(' '),
  params: PropertyParams,
  body: CreateRoomTypeBody,
  status: 201,
  response: okSchema(RoomTypeSchema),
  errors: ['errors.not_found', 'errors.qc.partner_code_taken'],
  handle: inProperty(async ({ deps, body, request }, property) => {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const row = await insertRoomType(tx, property, {
        name: body.name,
        nameTr: body.name_tr,
        kind: body.kind as RoomKind | undefined,
        legacyType: body.type,
        qty: body.qty,
        regularBeds: body.regular_beds,
        extraBeds: body.extra_beds,
        extraBedsChildrenOnly: body.extra_beds_children_only,
        noBeds: body.no_beds,
        occupancy: body.occupancy,
        description: body.description,
        sqmArea: body.sqm_area,
        images: body.images,
        partnerCode: body.partner_code,
        partnerName: body.partner_name,
      });
      const answer = ok(roomTypeView(row));
      await kept.keep(tx, 201, answer);
      return answer;
    });
  }),
});
