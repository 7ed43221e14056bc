import { t } from 'elysia';
import { fieldError } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { insertProperty } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';
import { setPropertyGroup } from '../property-groups/groups.ts';
import { Mode, RowId } from './operator-params.ts';

export const createPropertyOp = defineOperatorRoute({
  name: 'ops.properties.create',
  surface: 'ops',
  method: 'POST',
  path: '/properties',
  summary: 'Create a property for a customer (any mode, optionally in a group)',
  body: t.Object({
    customer_id: RowId,
    name: t.String({ minLength: 1 }),
    currency: t.String({ pattern: '^[A-Z]{3}$' }),
    timezone: t.String({ minLength: 1 }),
    mode: t.Optional(Mode),
    partner_code: t.Optional(t.String({ minLength: 1 })),
    type_id: t.Optional(t.Integer()),
    group_id: t.Optional(RowId),
  }),
  async handle({ deps, body, request }) {
    const kept = keptCreate(request, deps.clock.now());
    return deps.db.tx(async (tx) => {
      const row = await insertProperty(tx, {
        customerId: body.customer_id,
        name: body.name,
        currency: body.currency,
        timezone: body.timezone,
        mode: body.mode,
        partnerCode: body.partner_code,
        typeId: body.type_id,
      });
      if (body.group_id && !(await setPropertyGroup(tx, row.id, body.group_id)))
        throw fieldError('request', 'group_id', 'in');
      const answer = ok({ ...propertyView(row), internal_id: row.id });
      await kept.keep(tx, 200, answer);
      return answer;
    });
  },
});
