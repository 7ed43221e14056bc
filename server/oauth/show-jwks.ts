import { t } from 'elysia';
import { defineRoute } from '../core/routes/route.ts';

/** RFC 7517: public RSA keys, not wrapped in the envelope. */
const JwksSchema = t.Object({
  keys: t.Array(t.Object({ kty: t.String(), kid: t.String(), n: t.String(), e: t.String() })),
});

export const showJwks = defineRoute({
  name: 'qc.jwks.show',
  method: 'GET',
  path: '/.well-known/jwks.json',
  scope: null,
  bucket: 'reads',
  resource: 'jwks',
  auth: 'none',
  summary: 'Public keys that verify access tokens',
  tags: ['auth'],
  response: JwksSchema,
  handle({ deps }) {
    return deps.keys.jwks();
  },
});
