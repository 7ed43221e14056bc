import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { notFound } from '../core/http/api-error.ts';
import { ok } from '../core/http/envelope.ts';
import type { createJsonApp } from '../core/http/json-app.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { propertyIdOf } from '../properties/insert-property.ts';
import { receiveReview } from '../reviews/intake.ts';
import { IncomingReview } from '../reviews/model.ts';
import { reviewView } from '../reviews/view.ts';

type OpsApp = ReturnType<typeof createJsonApp>;

/**
 * POST /ops/reviews: the operator's intake of a review (a channel without a webhook, a correction, the demo).
 * Same upsert as the inbound channel webhook's `review` payloads.
 */
export function reviewOpsRoutes(deps: Deps) {
  return (app: OpsApp) =>
    app.post(
      '/reviews',
      async ({ body }) => {
        const [property] = await deps.db.sql<PropertyRow>`
          select * from properties where id = ${await propertyIdOf(deps, body.property_id)}`;
        if (!property) throw notFound();
        const { channel, property_id: _, ...review } = body;
        const received = await receiveReview(deps, property, channel, review);
        return ok({ ...reviewView(received.review), outcome: received.outcome });
      },
      {
        body: t.Composite([
          t.Object({
            property_id: t.String({ description: 'internal id or external id' }),
            channel: t.String({ minLength: 1, maxLength: 8 }),
          }),
          IncomingReview,
        ]),
        detail: { summary: 'Receive a review from a channel (operator intake)' },
      },
    );
}
