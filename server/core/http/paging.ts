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
