import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createCustomer } from '../customers/customers.ts';

export const createCustomerOp = defineOperatorRoute({
  name: 'ops.customers.create',
  surface: 'ops',
  method: 'POST',
  path: '/customers',
  summary: 'Create a customer (owns properties unless told otherwise)',
  body: t.Object({ name: t.String({ minLength: 1 }), owns_properties: t.Optional(t.Boolean()) }),
  async handle({ deps, body }) {
    return ok(await createCustomer(deps.db, { name: body.name, ownsProperties: body.owns_properties }));
  },
});
