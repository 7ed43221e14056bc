import { t } from 'elysia';
import { pageMeta } from './envelope.ts';
import { queryInteger } from './named-integer.ts';

/** The largest page number a list accepts: past it OFFSET overflowed into a 500. */
export const MAX_PAGE = 1_000_000;

/**
 * The one page size of every list (README, Conventions): `per_page` defaults to it and may not exceed it. The
 * interface names 200 as the property list's page size (spec 8.2); every list follows it, so a partner's list
 * reader needs no table of sizes. (The bookings list is the one exception the interface sets: at most 100.)
 */
export const PER_PAGE = 200;

/**
 * `page` and `per_page` of every list: integers (t.Numeric let `1.5` through, which reached SQL as a
 * non-integer LIMIT, a 500, or came back as page 1.5), with bounds, so a twenty-digit page is a 422 too.
 */
export function pagingQuery() {
  return {
    page: t.Optional(queryInteger('page', 1, MAX_PAGE, 'From 1 (default 1)')),
    per_page: t.Optional(queryInteger('per_page', 1, PER_PAGE, `1 to ${PER_PAGE} (default ${PER_PAGE})`)),
  };
}

/** The query of a list that takes nothing but paging. */
export const PagingQuery = t.Object(pagingQuery());

/** The page a list query asks for: page 1 and PER_PAGE rows unless it names others. */
export function pageOf(query: { page?: number; per_page?: number }) {
  return { page: query.page ?? 1, perPage: query.per_page ?? PER_PAGE };
}

/** One page of a list held in memory (a dictionary), with its `meta`, by the same rule as every other list. */
export function pageOfItems<T>(items: readonly T[], query: { page?: number; per_page?: number }) {
  const { page, perPage } = pageOf(query);
  return { items: items.slice((page - 1) * perPage, page * perPage), meta: pageMeta(items.length, page, perPage) };
}
