import { ok } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { AVAILABILITY_SHOW, showAvailability } from './availability-read.ts';
import { AvailabilityAnswer, PropertyParams, RangeQuery } from './model.ts';
import { MAX_READ_DAYS } from './read-range.ts';

export const showAvailabilityRoute = defineRoute({
  ...AVAILABILITY_SHOW,
  method: 'GET',
  path: '/properties/:property/availability',
  scope: 'inventory.read',
  bucket: 'reads',
  summary: 'Free rooms per room type and date',
  tags: ['inventory'],
  description:
    `Rooms to dates to free capacity (offered - booked, never below 0) for from..to (at most ${MAX_READ_DAYS} days). Every date ` +
    'of the range is answered for every live room type: a date nothing was pushed for reads 0 (nothing to sell).',
  params: PropertyParams,
  query: RangeQuery,
  response: AvailabilityAnswer,
  errors: ['errors.not_found', 'errors.validation_error'],
  handle: inProperty(async ({ deps, principal, query }, property) => {
    // Lag-tolerant: the read replica when configured and keeping up (docs/operations.md, Read replica).
    return ok(await showAvailability(deps.reads.for(principal.clientPk), property.id, query));
  }),
});
