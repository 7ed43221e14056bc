import { t } from 'elysia';
import { EmptyBody } from '../core/http/empty-body.ts';
import { accepted, acceptedSchema } from '../core/http/envelope.ts';
import { keptCreate } from '../core/idempotency/kept-creates.ts';
import { defineRoute } from '../core/routes/route.ts';
import { type DeliveryRow, deliveryView, redeliver } from './delivery-log.ts';
import { DeliverySchema } from './model.ts';
import { pathDelivery } from './path-delivery.ts';

export const redeliverDelivery = defineRoute({
  name: 'qc.deliveries.redeliver',
  method: 'POST',
  path: '/deliveries/:delivery/redeliver',
  scope: 'subscriptions.manage',
  bucket: 'config-writes',
  resource: 'delivery',
  summary: 'Redeliver a delivery of the last 90 days',
  tags: ['webhooks'],
  description: [
    'Answers 202 with the new delivery: same event body, new delivery id, attempts from 1. Any delivery of the',
    'last 90 days qualifies (else 422 `errors.qc.deliveries.redelivery_window_passed`); a disabled',
    'subscription must be enabled first (409 `errors.qc.subscription.disabled`).',
  ].join(' '),
  params: t.Object({ delivery: t.String() }),
  body: EmptyBody,
  status: 202,
  response: acceptedSchema(DeliverySchema),
  errors: ['errors.not_found', 'errors.qc.deliveries.redelivery_window_passed', 'errors.qc.subscription.disabled'],
  pathRecord: pathDelivery,
  async handle({ deps, request }, original) {
    // A new delivery each time: a retry with its key after an unknown outcome answers the one it made.
    const kept = keptCreate(request, deps.clock.now());
    const answer = (row: DeliveryRow) => accepted(deliveryView(row));
    return answer(await redeliver(deps, original, (tx, row) => kept.keep(tx, 202, answer(row))));
  },
});
