import { grants } from '../core/auth/scopes.ts';
import { scopeToReceive } from '../core/event-catalog.ts';

/** What the relay knows of a subscription's creating credential (api_clients). */
export interface Creator {
  scopes: ReadonlySet<string>;
  revoked: boolean;
}

/** Why events of a type are not sent to a subscription: the scope its creating credential lacks, or has lost. */
export interface Withheld {
  scope: string;
  reason: 'insufficient_scope' | 'credential_revoked';
}

/**
 * Whether an event type (emitted name or alias) is withheld from a subscription of this creator: its data needs a
 * scope (event-catalog.ts `scope`) the credential does not hold, or the credential is revoked. A subscription made
 * before creating one required the scope keeps the events its credential's scopes cover; one whose credential was
 * revoked since keeps only those that need no scope (subscription.*, property.*). The
 * credential's scopes, not a token's: a JWT narrowed at issue is gone by delivery time, the client's set is fixed.
 */
export function withheldFrom(creator: Creator, type: string): Withheld | undefined {
  const scope = scopeToReceive(type);
  if (!scope) return undefined;
  if (creator.revoked) return { scope, reason: 'credential_revoked' };
  return grants(creator.scopes, scope) ? undefined : { scope, reason: 'insufficient_scope' };
}
