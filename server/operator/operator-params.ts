import { t } from 'elysia';
import { pathInteger } from '../core/http/named-integer.ts';

/** An internal row id: a positive integer PostgreSQL can hold (a larger one is a 422, never a 500). */
export const RowId = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** A row id in an operator path: its 422 names `id` (../core/http/named-integer.ts). */
export const IdParams = t.Object({ id: pathInteger('id', 1, Number.MAX_SAFE_INTEGER, 'An internal row id') });

/** A property in an operator path: its internal id or external id (server/properties/insert-property.ts). */
export const PropertyIdParams = t.Object({ id: t.String() });

export const Mode = t.Union([t.Literal('shadow'), t.Literal('live')]);
