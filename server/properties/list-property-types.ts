import { t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PROPERTY_TYPES } from './property-types.ts';

export const listPropertyTypes = defineRoute({
  name: 'qc.property_types.list',
  method: 'GET',
  path: '/property-types',
  scope: null,
  bucket: 'reads',
  resource: 'property_type',
  summary: 'Property-type dictionary',
  tags: ['properties'],
  description:
    'A fixed dictionary: cache it. Entries are `{id, code, name}`; `id` is the `type_id` of POST /properties. ' +
    '`meta` has the form of every list; the whole dictionary is one page.',
  response: okSchema(
    t.Object({
      property_types: t.Array(t.Object({ id: t.Integer(), code: t.String(), name: t.String() })),
      meta: MetaSchema,
    }),
  ),
  // Like every other list it carries `meta`, so a partner's list reader needs no exception for it.
  handle: () =>
    ok({ property_types: [...PROPERTY_TYPES], meta: pageMeta(PROPERTY_TYPES.length, 1, PROPERTY_TYPES.length) }),
});
