import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { propertyIdOf, setPropertyMode } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';
import { Mode, PropertyIdParams } from './operator-params.ts';

export const setPropertyModeOp = defineOperatorRoute({
  name: 'ops.properties.mode',
  surface: 'ops',
  method: 'PUT',
  path: '/properties/:id/mode',
  summary: 'Flip a property between shadow and live',
  params: PropertyIdParams,
  body: t.Object({ mode: Mode }),
  async handle({ deps, params, body }) {
    const row = await setPropertyMode(deps, await propertyIdOf(deps, params.id), body.mode);
    if (!row) throw notFound();
    return ok(propertyView(row));
  },
});
