import { SCOPES } from '../core/auth/scopes.ts';
import { randomSecret, sha256Hex } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { createLegacyKey } from '../legacy-cutover/legacy-keys.ts';
import { createClient } from '../oauth/clients.ts';
import { insertProperty } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';

export interface DemoProperty extends ReturnType<typeof propertyView> {
  /** Later features attach their parts of the fixture here (room types, rate plans, ...). */
  [part: string]: unknown;
}

export interface Demo {
  customer_id: number;
  client: { client_id: string; client_secret: string; scopes: string[] };
  personal_token: string;
  legacy_api_key: string;
  /** The key's id, for the operator's cutover routes (GET/PUT /ops/legacy-keys/{id}). */
  legacy_api_key_id: number;
  properties: DemoProperty[];
  [part: string]: unknown;
}

/** Context each feature's demo step receives: the rows just created, to hang its own fixture on. */
export interface DemoContext {
  deps: Deps;
  customerId: number;
  live: PropertyRow;
  shadow: PropertyRow;
  demo: Demo;
}

export type DemoStep = (ctx: DemoContext) => Promise<void>;

/**
 * A fresh, independent customer with everything a partner needs to try the API. Names and codes carry a
 * random suffix, so two calls never collide. Feature steps (structure, bookings, legacy) extend it.
 */
export async function createDemo(deps: Deps, steps: readonly DemoStep[]): Promise<Demo> {
  const suffix = randomSecret(4)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .toUpperCase();
  const [customer] = await deps.db.sql<{ id: number }>`
    insert into customers (name) values (${`Demo Hotels ${suffix}`}) returning id`;
  if (!customer) throw new Error('customer insert returned no row');
  const customerId = customer.id;
  const live = await insertProperty(deps.db, {
    customerId,
    name: `Seaside Demo Hotel ${suffix}`,
    nameTr: { 'en-GB': `Seaside Demo Hotel ${suffix}` },
    currency: 'EUR',
    timezone: 'Europe/Lisbon',
    mode: 'live',
    partnerCode: `SEASIDE-${suffix}`,
    typeId: 1,
  });
  const shadow = await insertProperty(deps.db, {
    customerId,
    name: `Mountain Demo Lodge ${suffix}`,
    nameTr: { 'en-GB': `Mountain Demo Lodge ${suffix}` },
    currency: 'EUR',
    timezone: 'Europe/Vienna',
    mode: 'shadow',
    partnerCode: `MOUNTAIN-${suffix}`,
    typeId: 1,
  });
  const scopes = [...SCOPES];
  const client = await createClient(deps, {
    kind: 'oauth',
    customerId,
    name: 'demo client',
    scopes,
    accountScoped: false,
    propertyIds: [live.external_id, shadow.external_id],
    endpointScopes: [],
  });
  const personal = await createClient(deps, {
    kind: 'personal',
    customerId,
    name: 'demo personal token',
    scopes,
    accountScoped: true,
    propertyIds: [],
    endpointScopes: [],
  });
  const legacyKey = await createLegacyKey(deps, { customerId, propertyId: live.id, active: true });
  const demo: Demo = {
    customer_id: customerId,
    client: { client_id: client.clientId, client_secret: client.secret, scopes },
    personal_token: personal.secret,
    legacy_api_key: legacyKey.apiKey,
    legacy_api_key_id: legacyKey.id,
    properties: [propertyView(live), propertyView(shadow)],
  };
  for (const step of steps) await step({ deps, customerId, live, shadow, demo });
  return demo;
}
