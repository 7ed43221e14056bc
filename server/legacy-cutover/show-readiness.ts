import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { readinessView } from './readiness-view.ts';

/** GET /ops/legacy/readiness: every credential's mode, zero streak and the 90-day rule; who holds the sunset back. */
export const showReadiness = defineOperatorRoute({
  name: 'ops.legacy.readiness',
  surface: 'ops',
  method: 'GET',
  path: '/legacy/readiness',
  summary: 'Which legacy credentials are ready for shutdown',
  async handle({ deps }) {
    return ok(await readinessView(deps));
  },
});
