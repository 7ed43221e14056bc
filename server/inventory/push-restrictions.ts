import { accepted } from '../core/http/envelope.ts';
import { requestState } from '../core/http/request-state.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams, PushResult, RestrictionBody } from './model.ts';
import { PAIR_PUSH_ERRORS, PUSH_RULES } from './push-answer.ts';
import { PUSH_REFUSAL_FIELDS, unknownFieldsField } from './refused-rows.ts';
import { pushRestrictions, RESTRICTIONS_PUSH } from './restrictions-push.ts';

export const pushRestrictionsRoute = defineRoute({
  ...RESTRICTIONS_PUSH,
  method: 'POST',
  path: '/properties/:property/inventory/restrictions',
  scope: 'inventory.write',
  bucket: 'inventory-writes',
  principals: 'untouched',
  summary: 'Push restrictions',
  tags: ['inventory'],
  description: `At least one of min_los, max_los, stop_sell, closed_to_arrival, closed_to_departure per row; fields
not sent keep their stored value. Accepted on parent and child plans. ${PUSH_RULES}`,
  params: PropertyParams,
  body: RestrictionBody,
  status: 202,
  response: PushResult,
  errors: [...PAIR_PUSH_ERRORS, 'errors.qc.restriction_payload_empty'],
  errorFields: {
    422: {
      ...PUSH_REFUSAL_FIELDS,
      unknown_fields: unknownFieldsField('errors.qc.restriction_payload_empty', 'values.0.min_stya'),
    },
  },
  handle: inProperty(async ({ deps, principal, body, request }, property) => {
    const undeclared = requestState(request).undeclared;
    return accepted(await pushRestrictions(deps, principal, property, body.values, undeclared));
  }),
});
