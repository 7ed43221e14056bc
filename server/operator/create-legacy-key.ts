import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import { defineOperatorRoute } from '../core/routes/operator-route.ts';
import { createLegacyKey } from '../legacy-cutover/legacy-keys.ts';
import { checkUpstreamUrl } from '../legacy-cutover/upstream-url.ts';
import { propertyRowOf } from '../properties/insert-property.ts';
import { Mode } from './operator-params.ts';

export const createLegacyKeyOp = defineOperatorRoute({
  name: 'ops.legacy_keys.create',
  surface: 'ops',
  method: 'POST',
  path: '/legacy-keys',
  summary: 'Create a legacy api_key for a PMS on a property (the key is shown once)',
  body: t.Object({
    property_id: t.String(),
    active: t.Optional(t.Boolean()),
    pms_name: t.Optional(t.String()),
    mode: t.Optional(Mode),
    upstream_url: t.Optional(t.String({ pattern: '^https?://' })),
    allow_private_upstream: t.Optional(t.Boolean()),
  }),
  shownOnce: { fields: ['api_key'], renewal: 'create another key for the property (POST /ops/legacy-keys)' },
  async handle({ deps, body }) {
    const property = await propertyRowOf(deps, body.property_id);
    if (body.upstream_url) await checkUpstreamUrl(body.upstream_url, body.allow_private_upstream === true);
    const key = await createLegacyKey(deps, {
      customerId: property.customer_id,
      propertyId: property.id,
      active: body.active ?? true,
      pmsName: body.pms_name,
      mode: body.mode,
      upstreamUrl: body.upstream_url,
      allowPrivateUpstream: body.allow_private_upstream,
    });
    return ok({ id: key.id, api_key: key.apiKey, active: body.active ?? true });
  },
});
