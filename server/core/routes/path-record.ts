import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { requestState } from '../http/request-state.ts';

/**
 * How a feature finds, for the caller, the record a route's path names when that is not a property (a booking
 * button of /booking_buttons/:button/..., a policy of /properties/:property/payment_policies/:policy): the row, or
 * 404 errors.not_found when the caller may not see it. The feature declares it on its routes
 * (RouteDefinition.pathRecord), so core never imports the feature. A record under a property is found on the
 * path's property (recordInProperty, ./in-property.ts), which is why the resolver gets the request.
 */
export type PathRecordResolver<R> = (
  deps: Deps,
  principal: Principal,
  params: Record<string, string>,
  request: Request,
) => Promise<R>;

/**
 * The path's record of a route that declares one, resolved for the caller once per request. The pipeline asks
 * first, before it reads the body (server/core/http/qc-plugin.ts), so a record the caller may not see is a 404
 * whatever the body, as the property of a route under /properties/:property is (./in-property.ts); mountRoutes
 * then hands the handler the same row, without a second look-up.
 */
export function pathRecord(
  deps: Deps,
  resolve: PathRecordResolver<unknown>,
  principal: Principal,
  request: Request,
  params: Record<string, string>,
): Promise<unknown> {
  const state = requestState(request);
  state.pathRecord ??= resolve(deps, principal, params, request);
  return state.pathRecord;
}
