import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createPropertyGroup } from '../property-groups/groups.ts';
import { RowId } from './operator-params.ts';

export const createPropertyGroupOp = defineOperatorRoute({
  name: 'ops.property_groups.create',
  surface: 'ops',
  method: 'POST',
  path: '/property-groups',
  summary: "Create a group of a customer's properties",
  body: t.Object({ customer_id: RowId, name: t.String({ minLength: 1 }) }),
  async handle({ deps, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const answer = ok(await createPropertyGroup(tx, body.customer_id, body.name));
      await kept.keep(tx, 200, answer);
      return answer;
    });
  },
});
