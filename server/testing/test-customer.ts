import { SCOPES } from '../core/auth/scopes.ts';
import type { Deps } from '../core/deps.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { createCustomer } from '../customers/customers.ts';
import { createClient } from '../oauth/clients.ts';
import { insertProperty } from '../properties/insert-property.ts';

/** A customer built through the domain modules, typed, without the production demo. */
export interface CustomerFixture {
  customerId: number;
  /** A live and a shadow property, no structure. */
  live: PropertyRow;
  shadow: PropertyRow;
  /** A personal token holding every scope, account-scoped. */
  token: string;
}

let seq = 0;

/**
 * A fresh customer with a live and a shadow property and an account-scoped personal token: the fixture a
 * test needs when it is about a caller and its properties rather than the demo's structure and bookings.
 */
export async function customerFixture(deps: Deps): Promise<CustomerFixture> {
  const tag = `${process.pid}-${Date.now().toString(36)}-${++seq}`;
  const customer = await createCustomer(deps.db, { name: `Fixture ${tag}` });
  const property = (mode: 'live' | 'shadow') =>
    insertProperty(deps.db, {
      customerId: customer.id,
      name: `${mode} ${tag}`,
      currency: 'EUR',
      timezone: 'Europe/Lisbon',
      mode,
      partnerCode: `${mode.toUpperCase()}-${tag}`,
      typeId: 1,
    });
  const [live, shadow] = [await property('live'), await property('shadow')];
  const personal = await createClient(deps, {
    kind: 'personal',
    customerId: customer.id,
    name: 'fixture token',
    scopes: [...SCOPES],
    accountScoped: true,
    propertyIds: [],
    endpointScopes: [],
  });
  return { customerId: customer.id, live, shadow, token: personal.secret };
}
