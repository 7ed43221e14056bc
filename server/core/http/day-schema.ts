import { t } from 'elysia';

/**
 * The one date schema: a calendar day `YYYY-MM-DD` that exists (2025-02-30 and 2026-2-1 are refused with
 * rule `format`), for every date a route takes or answers; `dayOf` adds a description of what it is.
 */
export const dayOf = (description = 'YYYY-MM-DD') => t.String({ format: 'date', description });
export const Day = dayOf();

/**
 * The same shape for dates of batch rows that are read with their row (server/core/days.ts parseDay): an
 * impossible day is then reported with the row's other errors (a reversed range, a limit) in one 422,
 * instead of alone by the schema.
 */
export const DayText = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
