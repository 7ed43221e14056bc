import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { requestState } from '../http/request-state.ts';
import { type PropertyRow, resolveProperty } from '../resolve.ts';
import type { PathRecordResolver } from './path-record.ts';
import type { RouteInput, RouteSpec } from './route.ts';

/** Whether a route acts on the property its path names (`/properties/:property...`). */
export function underProperty(spec: RouteSpec): boolean {
  return /^\/properties\/:property(\/|$)/.test(spec.path);
}

/**
 * The path's property of a route under /properties/:property, resolved for the caller once per request (404
 * errors.not_found when it is unknown or outside the caller's grant, as resolveProperty answers). The pipeline
 * asks first, before it reads the body (server/core/http/qc-plugin.ts), so such a property is a 404 whatever the
 * body (README, Authorization); the handler (inProperty) then gets the same row without a second look-up. It is
 * looked up on the primary outside any transaction, as the handlers did themselves before.
 */
export function pathProperty(
  deps: Deps,
  principal: Principal,
  request: Request,
  params: Record<string, string | undefined>,
): Promise<PropertyRow> {
  const state = requestState(request);
  state.property ??= resolveProperty(deps.db, principal, params.property ?? '');
  return state.property;
}

/**
 * The `pathRecord` of a route under /properties/:property (a policy of /properties/:property/payment_policies/
 * :policy): `find` looks the record up on the path's property, so another property's record is a 404 like an
 * unknown one, whatever the body. The pipeline resolves the property first; this takes the same row.
 */
export function recordInProperty<R>(
  find: (deps: Deps, property: PropertyRow, params: Record<string, string>) => Promise<R>,
): PathRecordResolver<R> {
  return async (deps, principal, params, request) =>
    find(deps, await pathProperty(deps, principal, request, params), params);
}

/**
 * The handler of an operation under /properties/:property: `handle` runs with the path's property (pathProperty)
 * and, on a route that declares one, the path's record (recordInProperty).
 */
export function inProperty<P extends { property: string } | Record<string, string>, Q, B, R = undefined>(
  handle: (input: RouteInput<P, Q, B>, property: PropertyRow, record: R) => unknown,
): (input: RouteInput<P, Q, B>, record: R) => Promise<unknown> {
  return async (input, record) =>
    handle(
      input,
      await pathProperty(input.deps, input.principal, input.request, input.params as Record<string, string>),
      record,
    );
}
