import { t } from 'elysia';

const Option = t.Object({
  key: t.String(),
  name: t.String(),
  values: t.Array(t.Object({ code: t.String(), name: t.String() })),
});

export const AmenitySchema = t.Object({
  id: t.String({ description: 'code list and OTA code, e.g. HAC.68' }),
  code_list: t.Union([t.Literal('HAC'), t.Literal('RMA')]),
  code: t.Integer(),
  level: t.Union([t.Literal('property'), t.Literal('unit')]),
  name: t.String(),
  options: t.Array(Option),
});

export const AssignmentsBody = t.Object({
  amenities: t.Array(
    t.Object({
      id: t.String({ maxLength: 20 }),
      options: t.Optional(t.Record(t.String({ maxLength: 40 }), t.String({ maxLength: 40 }))),
    }),
    { maxItems: 300 },
  ),
});

export const AssignedSchema = t.Object({
  amenities: t.Array(
    t.Object({ id: t.String(), name: t.String(), group: t.String(), options: t.Record(t.String(), t.String()) }),
  ),
});
