import { t } from 'elysia';
import { bearerToken } from '../core/auth/credentials.ts';
import { DASHBOARD_AUDIENCE, signJwt } from '../core/auth/jwt.ts';
import { safeEqual } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import { notFound, unauthorized } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import { createJsonApp } from '../core/http/json-app.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { createDemo, createLegacyKey } from '../demo/demo.ts';
import { demoSteps } from '../demo/demo-steps.ts';
import type { LegacyCutoverParts } from '../legacy-cutover/legacy-cutover.ts';
import { checkUpstreamUrl } from '../legacy-cutover/upstream-url.ts';
import { createClient, TIERS } from '../oauth/clients.ts';
import { insertProperty, propertyIdOf, setPropertyMode } from '../properties/insert-property.ts';
import { propertyView } from '../properties/view.ts';
import { bookingOpsRoutes } from './bookings-routes.ts';
import { legacyCutoverOpsRoutes } from './legacy-cutover-routes.ts';
import { legacyRoomLinksOps } from './link-legacy-rooms.ts';
import { reviewOpsRoutes } from './reviews-routes.ts';
import { rotateClientSecretOp } from './rotate-client-secret.ts';

const Mode = t.Union([t.Literal('shadow'), t.Literal('live')]);
const IdParams = t.Object({ id: t.Numeric() });

/**
 * The operator API (outside the partner spec): what the service operator does on request (customers,
 * properties, credentials, the shadow/live flip) and what tests and the demo use to build fixtures.
 * Guarded by `Authorization: Bearer <QC_OPERATOR_TOKEN>`.
 */
export function opsRoutes(deps: Deps, operatorToken: string, cutover: LegacyCutoverParts) {
  return createJsonApp(deps, '/ops', 'qc-ops')
    .onTransform(({ request }) => {
      const bearer = bearerToken(request.headers.get('authorization')) ?? '';
      if (!safeEqual(bearer, operatorToken)) throw unauthorized(bearer);
    })
    .post('/demo', async () => ok(await createDemo(deps, demoSteps)), {
      detail: { summary: 'Create a fresh demo customer' },
    })
    .use(bookingOpsRoutes(deps))
    .use(reviewOpsRoutes(deps))
    .post(
      '/customers',
      async ({ body }) => {
        const [row] = await deps.db.sql<{ id: number; name: string; owns_properties: boolean }>`
          insert into customers (name, owns_properties) values (${body.name}, ${body.owns_properties ?? true})
          returning id, name, owns_properties`;
        return ok(row);
      },
      { body: t.Object({ name: t.String({ minLength: 1 }), owns_properties: t.Optional(t.Boolean()) }) },
    )
    .post(
      '/property-groups',
      async ({ body }) => {
        const [row] = await deps.db
          .sql`insert into property_groups (customer_id, name) values (${body.customer_id}, ${body.name}) returning *`;
        return ok(row);
      },
      { body: t.Object({ customer_id: t.Integer(), name: t.String({ minLength: 1 }) }) },
    )
    .put(
      '/property-groups/:id/paused',
      async ({ params, body }) => {
        const [row] = await deps.db
          .sql`update property_groups set paused = ${body.paused} where id = ${params.id} returning *`;
        if (!row) throw notFound();
        return ok(row);
      },
      { params: IdParams, body: t.Object({ paused: t.Boolean() }) },
    )
    .post(
      '/properties',
      async ({ body }) => {
        const row = await insertProperty(deps.db, {
          customerId: body.customer_id,
          name: body.name,
          currency: body.currency,
          timezone: body.timezone,
          mode: body.mode,
          partnerCode: body.partner_code,
          typeId: body.type_id,
        });
        if (body.group_id) await deps.db.sql`update properties set group_id = ${body.group_id} where id = ${row.id}`;
        return ok({ ...propertyView(row), internal_id: row.id });
      },
      {
        body: t.Object({
          customer_id: t.Integer(),
          name: t.String({ minLength: 1 }),
          currency: t.String({ pattern: '^[A-Z]{3}$' }),
          timezone: t.String({ minLength: 1 }),
          mode: t.Optional(Mode),
          partner_code: t.Optional(t.String({ minLength: 1 })),
          type_id: t.Optional(t.Integer()),
          group_id: t.Optional(t.Integer()),
        }),
      },
    )
    .put(
      '/properties/:id/mode',
      async ({ params, body }) => {
        const row = await setPropertyMode(deps, await propertyIdOf(deps, params.id), body.mode);
        if (!row) throw notFound();
        return ok(propertyView(row));
      },
      { params: t.Object({ id: t.String() }), body: t.Object({ mode: Mode }) },
    )
    .put(
      '/properties/:id/status',
      async ({ params, body }) => {
        const [row] = await deps.db.sql<PropertyRow>`
          update properties set status = ${body.status}, updated_at = now() where id = ${await propertyIdOf(deps, params.id)} returning *`;
        if (!row) throw notFound();
        return ok({ ...propertyView(row), status: row.status });
      },
      {
        params: t.Object({ id: t.String() }),
        body: t.Object({ status: t.Union([t.Literal('active'), t.Literal('disabled')]) }),
      },
    )
    .post(
      '/clients',
      async ({ body }) => {
        const c = await createClient(deps, {
          kind: 'oauth',
          customerId: body.customer_id,
          name: body.name,
          scopes: body.scopes,
          accountScoped: body.account_scoped ?? false,
          propertyIds: body.property_ids ?? [],
          endpointScopes: body.endpoint_scopes ?? [],
          tier: body.tier,
        });
        return ok({
          client_id: c.clientId,
          client_secret: c.secret,
          scopes: c.scopes,
          account_scoped: c.accountScoped,
          property_ids: c.propertyExternalIds,
          endpoint_scopes: c.endpointScopes,
          tier: c.tier,
        });
      },
      {
        body: t.Object({
          customer_id: t.Integer(),
          name: t.Optional(t.String()),
          scopes: t.Array(t.String()),
          account_scoped: t.Optional(t.Boolean()),
          property_ids: t.Optional(t.Array(t.String())),
          endpoint_scopes: t.Optional(t.Array(t.String())),
          tier: t.Optional(t.Union(TIERS.map((x) => t.Literal(x)))),
        }),
      },
    )
    .use(rotateClientSecretOp(deps))
    .use(legacyRoomLinksOps(deps))
    .post(
      '/clients/:id/revoke',
      async ({ params }) => {
        const [row] = await deps.db.sql<{ client_id: string }>`
          update api_clients set revoked_at = coalesce(revoked_at, now()) where client_id = ${params.id} returning client_id`;
        if (!row) throw notFound();
        return ok({ client_id: row.client_id, revoked: true });
      },
      { params: t.Object({ id: t.String() }) },
    )
    .post(
      '/legacy-keys',
      async ({ body }) => {
        const propertyId = await propertyIdOf(deps, body.property_id);
        const [p] = await deps.db.sql<{
          customer_id: number;
        }>`select customer_id from properties where id = ${propertyId}`;
        if (!p) throw notFound();
        if (body.upstream_url) await checkUpstreamUrl(body.upstream_url, body.allow_private_upstream === true);
        const key = await createLegacyKey(deps, {
          customerId: p.customer_id,
          propertyId,
          active: body.active ?? true,
          pmsName: body.pms_name,
          mode: body.mode,
          upstreamUrl: body.upstream_url,
        });
        return ok({ id: key.id, api_key: key.apiKey, active: body.active ?? true });
      },
      {
        body: t.Object({
          property_id: t.String(),
          active: t.Optional(t.Boolean()),
          pms_name: t.Optional(t.String()),
          mode: t.Optional(Mode),
          upstream_url: t.Optional(t.String({ pattern: '^https?://' })),
          allow_private_upstream: t.Optional(t.Boolean()),
        }),
      },
    )
    .use(legacyCutoverOpsRoutes(deps, cutover))
    .post('/signing-keys/rotate', async () => ok(await deps.keys.rotate()), {
      detail: { summary: 'Sign with a new JWT key; retired keys verify until their tokens expire' },
    })
    .post(
      '/customers/:id/dashboard-token',
      async ({ params }) => {
        const token = await signJwt(deps.keys, deps.clock, DASHBOARD_AUDIENCE, {
          sub: `customer:${params.id}`,
          customer_id: params.id,
        });
        return ok({ token });
      },
      { params: IdParams },
    )
    .get(
      '/incidents/:ticket',
      async ({ params }) => {
        const [row] = await deps.db.sql`select * from incidents where ticket = ${params.ticket}`;
        if (!row) throw notFound();
        return ok(row);
      },
      { params: t.Object({ ticket: t.String() }) },
    );
}
