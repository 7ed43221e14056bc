import { t } from 'elysia';
import { MetaSchema, ok, okSchema } from '../core/http/envelope.ts';
import { PagingQuery, pageOfItems } from '../core/http/paging.ts';
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
    'Paged like every list; the whole dictionary fits one page.',
  response: okSchema(
    t.Object({
      property_types: t.Array(t.Object({ id: t.Integer(), code: t.String(), name: t.String() })),
      meta: MetaSchema,
    }),
  ),
  query: PagingQuery,
  // Like every other list it takes page/per_page and carries `meta`: a partner's list reader needs no exception.
  handle: ({ query }) => {
    const { items, meta } = pageOfItems(PROPERTY_TYPES, query);
    return ok({ property_types: [...items], meta });
  },
});
