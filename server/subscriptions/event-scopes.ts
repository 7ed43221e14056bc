import type { Principal } from '../core/auth/principal.ts';
import { grants } from '../core/auth/scopes.ts';
import { EVENT_CATALOG, scopeToReceive } from '../core/event-catalog.ts';
import { insufficientScope } from '../core/http/api-error.ts';

/**
 * A subscription may name only events whose data the credential could read over the API: a booking event carries
 * the booking id, revision id and stay dates, so naming one needs bookings.read beside subscriptions.manage
 * (403 errors.qc.insufficient_scope naming the scope, as the route check does). Unknown names carry no scope here;
 * the input check answers them 422.
 */
export function requireEventScopes(principal: Principal, eventTypes: readonly string[]): void {
  for (const type of eventTypes) {
    const scope = scopeToReceive(type);
    if (scope && !grants(principal.scopes, scope)) throw insufficientScope(scope);
  }
}

/**
 * The event names (aliases included) whose data the principal may not read: a delivery of one is left out of its
 * delivery log and health view and cannot be redelivered by it, since the log shows each delivery's body.
 */
export function unreadableEventTypes(principal: Principal): string[] {
  return EVENT_CATALOG.filter((e) => e.scope && !grants(principal.scopes, e.scope)).map((e) => e.type);
}
