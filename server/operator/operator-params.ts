import { t } from 'elysia';

/** An internal row id: a positive integer PostgreSQL can hold (a larger one is a 422, never a 500). */
export const RowId = t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const IdParams = t.Object({ id: t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** A property in an operator path: its internal id or external id (server/properties/insert-property.ts). */
export const PropertyIdParams = t.Object({ id: t.String() });

export const Mode = t.Union([t.Literal('shadow'), t.Literal('live')]);
