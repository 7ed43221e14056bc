import { t } from 'elysia';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { findIncident } from '../core/http/incidents.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';

export const showIncidentOp = defineOperatorRoute({
  name: 'ops.incidents.show',
  surface: 'ops',
  method: 'GET',
  path: '/incidents/:ticket',
  summary: 'What a support ticket (X-QC-Support-Ticket) refers to',
  params: t.Object({ ticket: t.String() }),
  async handle({ deps, params }) {
    const row = await findIncident(deps.db, params.ticket);
    if (!row) throw notFound();
    return ok(row);
  },
});
