import type { Deps } from '../core/deps.ts';
import { fieldError } from '../core/http/api-error.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty, resolveRoomType } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { ListQuery, PropertyParams } from '../properties/model.ts';
import { CreateRoomTypeBody, RoomTypeParams, UpdateRoomTypeBody } from './model.ts';
import { createRoomType, type RoomKind, type RoomTypeRecord, updateRoomTypeMapping } from './service.ts';
import { roomTypeView } from './view.ts';

const PER_PAGE = 200;
const SEGMENT = 'Path segments take the external id or the partner code (external id tried first).';

export function registerRoomTypes(app: QcApp, deps: Deps) {
  app.get(
    routes.roomTypesList.path,
    async ({ principal, params, query }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const perPage = query.per_page ?? PER_PAGE;
      const page = query.page ?? 1;
      const [count] = await deps.db.sql<{ n: number }>`
        select count(*)::int as n from room_types where property_id = ${property.id} and deleted_at is null`;
      const rows = await deps.db.sql<RoomTypeRecord>`
        select * from room_types where property_id = ${property.id} and deleted_at is null
        order by created_at, id limit ${perPage} offset ${(page - 1) * perPage}`;
      return ok({ room_types: rows.map(roomTypeView), meta: pageMeta(count?.n ?? 0, page, perPage) });
    },
    {
      qc: routes.roomTypesList,
      params: PropertyParams,
      query: ListQuery,
      detail: {
        summary: routes.roomTypesList.summary,
        tags: ['room types'],
        description: `Paged (per_page up to 200). ${SEGMENT}`,
      },
    },
  );
  app.get(
    routes.roomTypesShow.path,
    async ({ principal, params }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      return ok(
        roomTypeView((await resolveRoomType(deps.db, property.id, params.roomType)) as unknown as RoomTypeRecord),
      );
    },
    {
      qc: routes.roomTypesShow,
      params: RoomTypeParams,
      detail: { summary: routes.roomTypesShow.summary, tags: ['room types'], description: SEGMENT },
    },
  );
  app.post(
    routes.roomTypesCreate.path,
    async ({ principal, params, body, set }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      if ((body.extra_beds_children_only ?? 0) > (body.extra_beds ?? 0)) {
        throw fieldError('room_type', 'extra_beds_children_only', 'max_extra_beds');
      }
      const row = await deps.db.tx((tx) =>
        createRoomType(tx, property, {
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
        }),
      );
      set.status = 201;
      return ok(roomTypeView(row));
    },
    {
      qc: routes.roomTypesCreate,
      params: PropertyParams,
      body: CreateRoomTypeBody,
      detail: {
        summary: routes.roomTypesCreate.summary,
        tags: ['room types'],
        description: [
          'Creates the room type record and answers 201 with it, fresh `id` included, in the same request.',
          'Beyond `name` every field is optional: `kind` and the legacy `type` (4 apartment, 5 villa, 6 studio,',
          '7 room) default from each other, beds default to 2 regular and no extra, `occupancy` defaults from the',
          'beds, `images` must be absolute HTTPS URLs. The beds drive the occupancy vocabulary of every rate plan',
          'pair of this room (see the rate plan endpoints). A `partner_code` used by another room type of the',
          'property: 409 `errors.qc.partner_code_taken`. Record and mapping commit in one transaction, so',
          '`errors.qc.room_created_map_failed` cannot occur.',
        ].join(' '),
      },
    },
  );
  app.patch(
    routes.roomTypesUpdate.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const room = await resolveRoomType(deps.db, property.id, params.roomType);
      const row = await deps.db.tx((tx) =>
        updateRoomTypeMapping(tx, property, room.id, {
          partnerCode: body.partner_code,
          partnerName: body.partner_name,
        }),
      );
      return ok(roomTypeView(row));
    },
    {
      qc: routes.roomTypesUpdate,
      params: RoomTypeParams,
      body: UpdateRoomTypeBody,
      detail: {
        summary: routes.roomTypesUpdate.summary,
        tags: ['room types'],
        description: `Sets \`partner_code\` and/or \`partner_name\`; \`null\` clears one; a code taken on this property is 409 \`errors.qc.partner_code_taken\`. ${SEGMENT}`,
      },
    },
  );
}
