import type { RouteSpec } from './route.ts';

/**
 * Endpoint allow-list (spec 5.6): exact route names or `qc.<resource>.*` wildcards matching by prefix
 * including the trailing dot. Empty means no restriction.
 */
export function endpointAllowed(allowList: readonly string[], routeName: string): boolean {
  if (allowList.length === 0) return true;
  return allowList.some((entry) =>
    entry.endsWith('.*') ? routeName.startsWith(entry.slice(0, -1)) : entry === routeName,
  );
}

/** The one wildcard form (spec 5.6): one resource, as GET /permissions lists it (`resources[].wildcard`). */
const RESOURCE_WILDCARD = /^qc\.[^.*]+\.\*$/;

/**
 * Entries naming no live route, or a wildcard of another form than `qc.<resource>.*` (`qc.*`, which would match
 * every route, `qc.bookings.list.*`) or matching none, are rejected at creation.
 */
export function unknownEndpointScopes(entries: readonly string[], routes: readonly RouteSpec[]): string[] {
  const names = routes.map((r) => r.name);
  return entries.filter(
    (entry) =>
      (entry.endsWith('.*') && !RESOURCE_WILDCARD.test(entry)) || !names.some((name) => endpointAllowed([entry], name)),
  );
}
