import { accepted } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { AVAILABILITY_PUSH, pushAvailability } from './availability-push.ts';
import { AvailabilityBody, PropertyParams, PushResult } from './model.ts';
import { PUSH_ERRORS, PUSH_RULES } from './push-answer.ts';
import { PUSH_REFUSAL_FIELDS } from './refused-rows.ts';

export const pushAvailabilityRoute = defineRoute({
  ...AVAILABILITY_PUSH,
  method: 'POST',
  path: '/properties/:property/inventory/availability',
  scope: 'inventory.write',
  bucket: 'inventory-writes',
  principals: 'untouched',
  summary: 'Push availability',
  tags: ['inventory'],
  description: `Free rooms per room type and date range; the service stores free + its own booked count. ${PUSH_RULES}`,
  params: PropertyParams,
  body: AvailabilityBody,
  status: 202,
  response: PushResult,
  errors: [...PUSH_ERRORS, 'errors.qc.unknown_room_type'],
  errorFields: { 422: PUSH_REFUSAL_FIELDS },
  handle: inProperty(async ({ deps, principal, body }, property) => {
    return accepted(await pushAvailability(deps, principal, property, body.values));
  }),
});
