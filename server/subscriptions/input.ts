import type { Principal } from '../core/auth/principal.ts';
import type { Deps } from '../core/deps.ts';
import { eventSpec } from '../core/event-catalog.ts';
import { ApiError, type FieldErrors, validationError } from '../core/http/api-error.ts';
import { findProperties } from '../core/resolve.ts';
import { destinationProblem, type LookupFn } from '../core/ssrf-guard.ts';
import { requireEventScopes } from './event-scopes.ts';
import type { SubscriptionInput } from './model.ts';

/** A create or update request, validated and resolved to internal ids. Absent fields are undefined. */
export interface SubscriptionChanges {
  url?: string;
  eventTypes?: string[];
  propertyIds?: number[];
  allProperties?: boolean;
}

const rule = (name: string) => `customer.subscription.messages.${name}`;

/**
 * Field rules: `url` (or `target_url`) must be an HTTPS URL whose host resolves only to public addresses
 * (see ssrf-guard.ts), without credentials (`userinfo`, whatever QC_WEBHOOK_ALLOW_PRIVATE says); every event name must be in the catalogue; every property id or partner code must
 * be one the token may act on (else 422 errors.qc.subscription.unknown_property). On create, leaving out
 * property_ids subscribes to every property the credential may see: live for an account-scoped
 * credential, its fixed allow-list otherwise. An explicit empty list limits the subscription to
 * account-level events (subscription.*). An event the credential may not read (./event-scopes.ts) is 403 before
 * anything else is checked, so a refused request resolves no host.
 */
export async function readSubscriptionInput(
  deps: Deps,
  principal: Principal,
  body: SubscriptionInput,
  mode: 'create' | 'update',
  lookup?: LookupFn,
): Promise<SubscriptionChanges> {
  const eventTypes = body.event_types ?? (body.event !== undefined ? [body.event] : undefined);
  requireEventScopes(principal, eventTypes ?? []);
  const errors: FieldErrors = {};
  const changes: SubscriptionChanges = {};

  const url = body.url ?? body.target_url;
  const urlField = body.url !== undefined ? 'url' : 'target_url';
  if (url === undefined) {
    if (mode === 'create') errors.url = [rule('required')];
  } else {
    const problem = carriesCredentials(url)
      ? 'userinfo'
      : await destinationProblem(url, deps.config.webhookAllowPrivate, lookup);
    if (problem) errors[urlField] = [rule(problem)];
    else changes.url = url;
  }

  const eventsField = body.event_types !== undefined ? 'event_types' : 'event';
  if (eventTypes === undefined) {
    if (mode === 'create') errors.event_types = [rule('required')];
  } else {
    eventTypes.forEach((name, i) => {
      if (!eventSpec(name)) errors[eventsField === 'event' ? 'event' : `event_types.${i}`] = [rule('unknown_event')];
    });
    changes.eventTypes = [...new Set(eventTypes)];
  }
  if (Object.keys(errors).length) throw validationError(errors);

  if (body.property_ids !== undefined) {
    changes.propertyIds = await resolvePropertyRefs(deps, principal, body.property_ids);
    changes.allProperties = false;
  } else if (mode === 'create') {
    changes.allProperties = principal.accountScoped;
    changes.propertyIds = principal.accountScoped ? [] : [...principal.propertyIds];
  }
  return changes;
}

/**
 * `https://user:secret@host/`: deliveries are authenticated by their signature (spec 6.1), and a secret in the
 * URL would be shown back in every subscription view and delivery log, and sent to whoever the host becomes.
 */
function carriesCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** Every ref must name a property of the token's allow-list (the resolver's rule, server/core/resolve.ts). */
async function resolvePropertyRefs(deps: Deps, principal: Principal, refs: readonly string[]): Promise<number[]> {
  const rows = await findProperties(deps.db, principal, refs);
  const ids = rows.flatMap((row) => (row ? [row.id] : []));
  if (ids.length < refs.length) throw new ApiError('errors.qc.subscription.unknown_property');
  return [...new Set(ids)];
}
