import { DASHBOARD_AUDIENCE, signJwt } from '../core/auth/jwt.ts';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { customerExists } from '../customers/customers.ts';
import { IdParams } from './operator-params.ts';

export const mintDashboardTokenOp = defineOperatorRoute({
  name: 'ops.dashboard_tokens.create',
  surface: 'ops',
  method: 'POST',
  path: '/customers/:id/dashboard-token',
  summary: 'A dashboard session JWT acting for the customer (audience qc-dashboard)',
  params: IdParams,
  shownOnce: { fields: ['token'], renewal: 'mint another (this route, without this Idempotency-Key)' },
  async handle({ deps, params }) {
    // A session for no customer would answer empty lists and fail its first write.
    if (!(await customerExists(deps.db, params.id))) throw notFound();
    const token = await signJwt(deps.keys, deps.clock, DASHBOARD_AUDIENCE, {
      sub: `customer:${params.id}`,
      customer_id: params.id,
    });
    return ok({ token });
  },
});
