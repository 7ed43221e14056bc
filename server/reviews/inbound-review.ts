import { Value } from '@sinclair/typebox/value';
import { t } from 'elysia';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { fieldErrorsFrom } from '../core/http/validation.ts';
import type { PropertyRow } from '../core/resolve.ts';
import { receiveReview } from './intake.ts';
import { IncomingReview } from './model.ts';

/**
 * A review delivered through the inbound channel webhook: `{"kind": "review", "external_property_id",
 * "review": {...}}` beside the reservations the same endpoint takes. The webhook resolves the property and
 * the channel; this checks the review block and runs the same upsert as the operator intake.
 */
export const InboundReviewPayload = t.Object({
  kind: t.Literal('review'),
  external_property_id: t.String({ minLength: 1 }),
  review: IncomingReview,
});

export function isReviewPayload(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { kind?: unknown }).kind === 'review';
}

export async function receiveInboundReview(deps: Deps, property: PropertyRow, channel: string, json: unknown) {
  if (!Value.Check(InboundReviewPayload, json)) {
    const errors = [...Value.Errors(InboundReviewPayload, json)] as unknown as Parameters<typeof fieldErrorsFrom>[0];
    throw new ApiError('errors.qc.webhook.payload_invalid', { errors: fieldErrorsFrom(errors, 'review') });
  }
  try {
    const { review, outcome } = await receiveReview(deps, property, channel, json.review);
    return { review_id: review.external_id, outcome };
  } catch (err) {
    throw payloadInvalid(err);
  }
}

/**
 * The intake's own field checks (a rating above its scale, a date it cannot read) answer the operator's API with
 * 422 validation_error on `rating`; a channel hears of its payload as of a schema failure: payload_invalid, on
 * the field's path in the payload (`review.rating`).
 */
function payloadInvalid(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.key !== 'errors.validation_error') return err;
  const errors = err.extra.errors as Record<string, string[]>;
  return new ApiError('errors.qc.webhook.payload_invalid', {
    errors: Object.fromEntries(Object.entries(errors).map(([field, rules]) => [`review.${field}`, rules])),
  });
}
