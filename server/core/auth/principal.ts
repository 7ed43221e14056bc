import type { Scope } from './scopes.ts';

/** Who is calling, resolved live on every request (revocation and allow-list changes apply at once). */
export interface Principal {
  /** api_clients.id: the consumer identity for acks, rate limits and idempotency. */
  clientPk: number;
  clientId: string;
  kind: 'oauth' | 'personal';
  customerId: number;
  scopes: ReadonlySet<Scope>;
  accountScoped: boolean;
  /** Internal ids of the properties this request may touch (active, group not paused, granted). */
  propertyIds: ReadonlySet<number>;
  endpointScopes: readonly string[];
  tier: string;
}
