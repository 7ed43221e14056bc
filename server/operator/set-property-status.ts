import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { propertyIdOf, setPropertyStatus } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';
import { PropertyIdParams } from './operator-params.ts';

export const setPropertyStatusOp = defineOperatorRoute({
  name: 'ops.properties.status',
  surface: 'ops',
  method: 'PUT',
  path: '/properties/:id/status',
  summary: 'Enable or disable a property',
  params: PropertyIdParams,
  body: t.Object({ status: t.Union([t.Literal('active'), t.Literal('disabled')]) }),
  async handle({ deps, params, body }) {
    const row = await setPropertyStatus(deps.db, await propertyIdOf(deps, params.id), body.status);
    if (!row) throw notFound();
    return ok({ ...propertyView(row), status: row.status });
  },
});
