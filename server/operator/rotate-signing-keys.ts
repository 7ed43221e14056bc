import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';

export const rotateSigningKeysOp = defineOperatorRoute({
  name: 'ops.signing_keys.rotate',
  surface: 'ops',
  method: 'POST',
  path: '/signing-keys/rotate',
  summary: 'Sign with a new JWT key; retired keys verify until their tokens expire',
  async handle({ deps }) {
    return ok(await deps.keys.rotate());
  },
});
