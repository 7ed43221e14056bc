import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createDemo } from './demo.ts';
import { demoSteps } from './demo-steps.ts';

/** POST /ops/demo: a fresh, independent demo customer (server/demo/demo.ts), every feature's step included. */
export const createDemoOp = defineOperatorRoute({
  name: 'ops.demo.create',
  surface: 'ops',
  method: 'POST',
  path: '/demo',
  summary: 'Create a fresh demo customer',
  shownOnce: {
    fields: ['client.client_secret', 'personal_token', 'legacy_api_key', 'legacy.api_key'],
    renewal: 'create another demo (POST /ops/demo)',
  },
  async handle({ deps }) {
    return ok(await createDemo(deps, demoSteps));
  },
});
