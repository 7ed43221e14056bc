import { type TSchema, t } from 'elysia';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute, type RouteDefinition } from '../core/routes/route.ts';
import { DEFAULT_PER_PAGE, PageQuery, RecordParams } from './model.ts';
import { configOperation } from './operation.ts';
import { findOwned, listOwned, type OwnedRow, type OwnedTable } from './owned-records.ts';

interface OwnedRead<R extends OwnedRow> {
  name: `qc.${string}.${string}`;
  /** Path of the collection under the property, e.g. `/properties/:property/promotions`. */
  path: string;
  resource: string;
  table: OwnedTable;
  summary: string;
  description?: string;
  schema: TSchema;
  view: (row: R) => unknown;
}

/**
 * GET of a property's collection (`data.<table>[]` plus `meta`, oldest first): the same for every
 * configuration entity stored per property, so it is written once.
 */
export function ownedListRoute<R extends OwnedRow>(read: OwnedRead<R>): RouteDefinition {
  return defineRoute({
    ...configOperation(read.name, 'GET', read.path, read.resource, read.summary),
    description: read.description,
    params: t.Object({ property: t.String() }),
    query: PageQuery,
    response: okSchema(t.Object({ [read.table]: t.Array(read.schema), meta: MetaSchema })),
    async handle({ deps, principal, params, query }) {
      const property = await resolveProperty(deps.db, principal, params.property);
      const page = query.page ?? 1;
      const perPage = query.per_page ?? DEFAULT_PER_PAGE;
      const { rows, total } = await listOwned<R>(deps.db, read.table, property.id, page, perPage);
      return ok({ [read.table]: rows.map(read.view), meta: pageMeta(total, page, perPage) });
    },
  });
}

/** GET of one record by its id under the property's URL (404 for another property's record). */
export function ownedShowRoute<R extends OwnedRow>(read: OwnedRead<R> & { param: string }): RouteDefinition {
  return defineRoute({
    ...configOperation(read.name, 'GET', `${read.path}/:${read.param}`, read.resource, read.summary),
    description: read.description,
    params: RecordParams(read.param),
    response: okSchema(read.schema),
    async handle({ deps, principal, params }) {
      const segments = params as Record<string, string>;
      const property = await resolveProperty(deps.db, principal, segments.property as string);
      const id = segments[read.param] as string;
      return ok(read.view(await findOwned<R>(deps.db, read.table, property.id, id)));
    },
  });
}
