import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createCustomer } from '../customers/customers.ts';

export const createCustomerOp = defineOperatorRoute({
  name: 'ops.customers.create',
  surface: 'ops',
  method: 'POST',
  path: '/customers',
  summary: 'Create a customer (owns properties unless told otherwise)',
  body: t.Object({ name: t.String({ minLength: 1 }), owns_properties: t.Optional(t.Boolean()) }),
  async handle({ deps, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const answer = ok(await createCustomer(tx, { name: body.name, ownsProperties: body.owns_properties }));
      await kept.keep(tx, 200, answer);
      return answer;
    });
  },
});
