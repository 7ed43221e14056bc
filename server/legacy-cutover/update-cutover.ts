import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { pathInteger } from '../core/http/named-integer.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { setCutover } from './cutover-setting.ts';

/**
 * PUT /ops/legacy-keys/{id}/cutover `{mode, upstream_url?, allow_private_upstream?}`: shadow (the legacy service
 * answers, the port is compared) or live (the port answers, the legacy service is not called), from the key's
 * next request on. A new `upstream_url` follows the destination rules of ./upstream-url.ts.
 */
export const updateCutover = defineOperatorRoute({
  name: 'ops.legacy_keys.cutover',
  surface: 'ops',
  method: 'PUT',
  path: '/legacy-keys/:id/cutover',
  summary: 'Flip a legacy api key between shadow and live',
  params: t.Object({ id: pathInteger('id', 1, Number.MAX_SAFE_INTEGER, "The legacy key's id") }),
  body: t.Object({
    mode: t.Union([t.Literal('shadow'), t.Literal('live')]),
    upstream_url: t.Optional(t.Nullable(t.String({ pattern: '^https?://' }))),
    /** The legacy service is on a private or loopback address, and the operator means it (./upstream-url.ts). */
    allow_private_upstream: t.Optional(t.Boolean()),
  }),
  async handle({ deps, params, body }) {
    return ok(await setCutover(deps, params.id, body));
  },
});
