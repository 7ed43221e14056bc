import { t } from 'elysia';
import { DEFAULT_PER_PAGE, PageQuery } from '../config-surfaces/model.ts';
import { configOperation } from '../config-surfaces/operation.ts';
import { listOwned } from '../config-surfaces/owned-records.ts';
import { MetaSchema, ok, okSchema, pageMeta } from '../core/http/envelope.ts';
import { resolveProperty } from '../core/resolve.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PaymentPolicySchema } from './model.ts';
import type { PaymentPolicyRow } from './service.ts';
import { paymentPolicyView } from './view.ts';

export const listPaymentPolicies = defineRoute({
  ...configOperation(
    'qc.payment_policies.list',
    'GET',
    '/properties/:property/payment_policies',
    'payment_policy',
    'Payment policies of a property, oldest first',
  ),
  description: 'Includes the placeholder seeded by the first rate plan (`is_placeholder: true` until edited).',
  params: t.Object({ property: t.String() }),
  query: PageQuery,
  response: okSchema(t.Object({ payment_policies: t.Array(PaymentPolicySchema), meta: MetaSchema })),
  async handle({ deps, principal, params, query }) {
    const property = await resolveProperty(deps.db, principal, params.property);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await listOwned<PaymentPolicyRow>(deps.db, 'payment_policies', property.id, page, perPage);
    return ok({ payment_policies: rows.map(paymentPolicyView), meta: pageMeta(total, page, perPage) });
  },
});
