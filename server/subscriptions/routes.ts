import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ok, pageMeta } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { routes } from '../core/routes/route-table.ts';
import { readSubscriptionInput } from './input.ts';
import {
  CreateSubscriptionBody,
  ListQuery,
  SubscriptionParams,
  SubscriptionSchema,
  UpdateSubscriptionBody,
} from './model.ts';
import {
  createSubscription,
  deleteSubscription,
  enableSubscription,
  findSubscription,
  listSubscriptions,
  rotateSecret,
  updateSubscription,
} from './service.ts';
import { subscriptionView } from './view.ts';

const PER_PAGE = 50;
const tags = ['webhooks'];
const WithSecret = t.Object({
  status: t.Literal('ok'),
  message: t.String(),
  data: t.Composite([SubscriptionSchema, t.Object({ secret: t.String() })]),
});

export function registerSubscriptions(app: QcApp, deps: Deps) {
  app.post(
    routes.subscriptionsCreate.path,
    async ({ principal, body, set }) => {
      const input = await readSubscriptionInput(deps, principal, body, 'create');
      const { row, secret } = await createSubscription(deps, principal, input);
      set.status = 201;
      return ok({ ...subscriptionView(row), secret });
    },
    {
      qc: routes.subscriptionsCreate,
      body: CreateSubscriptionBody,
      response: { 201: WithSecret },
      detail: {
        summary: routes.subscriptionsCreate.summary,
        tags,
        description: [
          'Answers 201 with the subscription and its signing `secret`, shown this once. `url` (or `target_url`) must be',
          'HTTPS and resolve only to public addresses (422 `customer.subscription.messages.https_required` /',
          '`private_address` / `unresolvable_host`). `event_types[]` (or `event`) are names from GET /event-catalog.',
          '`property_ids[]` are external ids or partner codes the token may act on (422',
          '`errors.qc.subscription.unknown_property` otherwise); omitted, the subscription follows every property the',
          'credential may see; an explicit empty list limits it to account-level events (subscription.*).',
        ].join(' '),
      },
    },
  );
  app.get(
    routes.subscriptionsList.path,
    async ({ principal, query }) => {
      const page = query.page ?? 1;
      const perPage = query.per_page ?? PER_PAGE;
      const { rows, total } = await listSubscriptions(deps.db, principal, page, perPage);
      return ok({ subscriptions: rows.map(subscriptionView), meta: pageMeta(total, page, perPage) });
    },
    { qc: routes.subscriptionsList, query: ListQuery, detail: { summary: routes.subscriptionsList.summary, tags } },
  );
  app.get(
    routes.subscriptionsShow.path,
    async ({ principal, params }) =>
      ok(subscriptionView(await findSubscription(deps.db, principal, params.subscription))),
    {
      qc: routes.subscriptionsShow,
      params: SubscriptionParams,
      detail: { summary: routes.subscriptionsShow.summary, tags },
    },
  );
  app.patch(
    routes.subscriptionsUpdate.path,
    async ({ principal, params, body }) => {
      await findSubscription(deps.db, principal, params.subscription);
      const input = await readSubscriptionInput(deps, principal, body, 'update');
      return ok(subscriptionView(await updateSubscription(deps, principal, params.subscription, input)));
    },
    {
      qc: routes.subscriptionsUpdate,
      params: SubscriptionParams,
      body: UpdateSubscriptionBody,
      detail: {
        summary: routes.subscriptionsUpdate.summary,
        tags,
        description:
          'Only the fields present change, with the same rules as on create. The secret is untouched (use rotate-secret).',
      },
    },
  );
  app.delete(
    routes.subscriptionsDelete.path,
    async ({ principal, params }) => {
      const row = await deleteSubscription(deps, principal, params.subscription);
      return ok({ id: row.external_id, deleted: true });
    },
    {
      qc: routes.subscriptionsDelete,
      params: SubscriptionParams,
      detail: {
        summary: routes.subscriptionsDelete.summary,
        tags,
        description:
          'Outstanding deliveries become `dead`; the subscription and its delivery log are gone from the API.',
      },
    },
  );
  app.post(
    routes.subscriptionsRotate.path,
    async ({ principal, params }) => {
      const { row, secret } = await rotateSecret(deps, principal, params.subscription);
      return ok({ ...subscriptionView(row), secret });
    },
    {
      qc: routes.subscriptionsRotate,
      params: SubscriptionParams,
      response: { 200: WithSecret },
      detail: {
        summary: routes.subscriptionsRotate.summary,
        tags,
        description: [
          'Answers the new `secret` once. Deliveries made from now on are signed with it. Retries of deliveries made',
          'before the rotation stay signed with the previous secret until `previous_secret_expires_at` (24 hours), then',
          'with the new one: accept both secrets in your receiver for those 24 hours.',
        ].join(' '),
      },
    },
  );
  app.post(
    routes.subscriptionsEnable.path,
    async ({ principal, params }) =>
      ok(subscriptionView(await enableSubscription(deps, principal, params.subscription))),
    {
      qc: routes.subscriptionsEnable,
      params: SubscriptionParams,
      detail: {
        summary: routes.subscriptionsEnable.summary,
        tags,
        description:
          'A subscription is disabled after more than 72 hours of failed deliveries with no success. Enabling clears the streak and resumes its outstanding deliveries; an active subscription is answered as is.',
      },
    },
  );
}
