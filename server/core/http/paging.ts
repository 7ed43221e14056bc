import { validationError } from './api-error.ts';

const PAGING = ['page', 'per_page'] as const;

/**
 * `page` and `per_page` are integers of at most nine digits on every list: `1.5` reached SQL as a
 * non-integer LIMIT and a twenty-digit page overflowed OFFSET, both 500s. Checked before the route's own
 * query schema, which then applies its minimum and maximum.
 */
export function refuseBadPaging(query: unknown, resource: string): void {
  if (!query || typeof query !== 'object') return;
  const errors: Record<string, string[]> = {};
  for (const name of PAGING) {
    const value = (query as Record<string, unknown>)[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value))
      errors[name] = [`customer.${resource}.messages.integer`];
  }
  if (Object.keys(errors).length) throw validationError(errors);
}
