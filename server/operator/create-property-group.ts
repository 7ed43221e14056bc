import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
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
  async handle({ deps, body }) {
    return ok(await createPropertyGroup(deps.db, body.customer_id, body.name));
  },
});
