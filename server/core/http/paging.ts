import { t } from 'elysia';

/** The largest page number a list accepts: past it OFFSET overflowed into a 500. */
export const MAX_PAGE = 1_000_000;

/**
 * `page` and `per_page` of every list: integers (t.Numeric let `1.5` through, which reached SQL as a
 * non-integer LIMIT, a 500, or came back as page 1.5), with bounds, so a twenty-digit page is a 422 too.
 */
export function pagingQuery(maxPerPage: number) {
  return {
    page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE })),
    per_page: t.Optional(t.Integer({ minimum: 1, maximum: maxPerPage })),
  };
}

/**
 * The page a list query asks for: page 1 and `perPage` rows unless it names others, and never more rows than
 * `most` (a list whose query schema allows more than it serves clamps here rather than refusing).
 */
export function pageOf(query: { page?: number; per_page?: number }, perPage: number, most = Number.POSITIVE_INFINITY) {
  return { page: query.page ?? 1, perPage: Math.min(query.per_page ?? perPage, most) };
}
