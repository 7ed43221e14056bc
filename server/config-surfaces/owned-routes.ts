import type { Static } from '@sinclair/typebox';
import { type TSchema, t } from 'elysia';
import type { Db } from '../core/db/db.ts';
import { EmptyBody } from '../core/http/empty-body.ts';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { pageOf } from '../core/http/paging.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute, type RouteDefinition } from '../core/routes/route.ts';
import { DeletedSchema, PageQuery, RecordParams } from './model.ts';
import { configOperation } from './operation.ts';
import { listOwned, type OwnedRow, type OwnedTable } from './owned-records.ts';
import { ownedInPath } from './path-owned.ts';

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
    handle: inProperty(async ({ deps, query }, property) => {
      const { page, perPage } = pageOf(query);
      const { rows, total } = await listOwned<R>(deps.db, read.table, property.id, page, perPage);
      return ok({ [read.table]: rows.map(read.view), meta: pageMeta(total, page, perPage) });
    }),
  });
}

/** GET of one record by its id under the property's URL (404 for another property's record). */
export function ownedShowRoute<R extends OwnedRow>(read: OwnedRead<R> & { param: string }): RouteDefinition {
  return defineRoute({
    ...configOperation(read.name, 'GET', `${read.path}/:${read.param}`, read.resource, read.summary),
    description: read.description,
    params: RecordParams(read.param),
    response: okSchema(read.schema),
    pathRecord: ownedInPath<R>(read.table, read.param),
    handle: (_input, row) => ok(read.view(row)),
  });
}

type Write<B> = (tx: Db, property: PropertyRow, body: B, now: Date) => Promise<unknown>;
type RecordWrite<B> = (tx: Db, property: PropertyRow, id: string, body: B, now: Date) => Promise<unknown>;

interface OwnedWrite {
  name: `qc.${string}.${string}`;
  path: string;
  resource: string;
  summary: string;
  description: string;
  schema: TSchema;
  errors?: RouteDefinition['errors'];
  /** Fields a refusal answers beside its key, per status, so the document and the typed client know them. */
  errorFields?: RouteDefinition['errorFields'];
}

/**
 * POST of a new record on the property: 201 with its view; the domain function runs in one transaction, which
 * keeps the Idempotency-Key with the answer (kept-creates.ts).
 */
export function ownedCreateRoute<S extends TSchema, R>(
  write: OwnedWrite & { body: S; create: Write<Static<S>>; view: (row: R) => unknown },
): RouteDefinition {
  return defineRoute({
    ...configOperation(write.name, 'POST', write.path, write.resource, write.summary),
    description: write.description,
    status: 201,
    params: t.Object({ property: t.String() }),
    body: write.body,
    response: okSchema(write.schema),
    errors: write.errors,
    errorFields: write.errorFields,
    handle: inProperty(async ({ deps, body, request }, property) => {
      const now = deps.clock.now();
      const kept = keptCreate(request, now);
      return deps.db.tx(async (tx) => {
        const answer = ok(write.view((await write.create(tx, property, body as Static<S>, now)) as R));
        await kept.keep(tx, 201, answer);
        return answer;
      });
    }),
  });
}

/** Where a write's record is: its table, and the path parameter naming it (resolved before the body: path-owned.ts). */
interface OwnedRecord {
  table: OwnedTable;
  param: string;
}

/** PATCH of one record (partial): 200 with its view. The update locks the record again in its transaction. */
export function ownedUpdateRoute<S extends TSchema, R>(
  write: OwnedWrite & OwnedRecord & { body: S; update: RecordWrite<Static<S>>; view: (row: R) => unknown },
): RouteDefinition {
  return defineRoute({
    ...configOperation(write.name, 'PATCH', `${write.path}/:${write.param}`, write.resource, write.summary),
    description: write.description,
    params: RecordParams(write.param),
    body: write.body,
    response: okSchema(write.schema),
    errors: write.errors,
    errorFields: write.errorFields,
    pathRecord: ownedInPath(write.table, write.param),
    handle: inProperty(async ({ deps, params, body }, property) => {
      const segments = params as Record<string, string>;
      const now = deps.clock.now();
      const id = segments[write.param] as string;
      const row = await deps.db.tx((tx) => write.update(tx, property, id, body as Static<S>, now));
      return ok(write.view(row as R));
    }),
  });
}

/**
 * DELETE of one record: `{id, deleted: true}`; the domain function locks the record again and says when it may
 * not go (409).
 */
export function ownedDeleteRoute(
  write: Omit<OwnedWrite, 'schema'> &
    OwnedRecord & { remove: (tx: Db, property: PropertyRow, id: string, now: Date) => Promise<string> },
): RouteDefinition {
  return defineRoute({
    ...configOperation(write.name, 'DELETE', `${write.path}/:${write.param}`, write.resource, write.summary),
    description: write.description,
    params: RecordParams(write.param),
    body: EmptyBody,
    response: okSchema(DeletedSchema),
    errors: write.errors,
    errorFields: write.errorFields,
    pathRecord: ownedInPath(write.table, write.param),
    handle: inProperty(async ({ deps, params }, property) => {
      const segments = params as Record<string, string>;
      const now = deps.clock.now();
      const id = segments[write.param] as string;
      const deleted = await deps.db.tx((tx) => write.remove(tx, property, id, now));
      return ok({ id: deleted, deleted: true as const });
    }),
  });
}
