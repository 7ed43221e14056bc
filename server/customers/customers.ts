import type { Db } from '../core/db/db.ts';

export interface CustomerRow {
  id: number;
  name: string;
  owns_properties: boolean;
}

/** A customer of the service (a hotel group or a partner); owning properties is the default. */
export async function createCustomer(db: Db, input: { name: string; ownsProperties?: boolean }): Promise<CustomerRow> {
  const [row] = await db.sql<CustomerRow>`
    insert into customers (name, owns_properties) values (${input.name}, ${input.ownsProperties ?? true})
    returning id, name, owns_properties`;
  if (!row) throw new Error('customer insert returned no row');
  return row;
}

export async function customerExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.sql`select 1 from customers where id = ${id}`;
  return row !== undefined;
}
