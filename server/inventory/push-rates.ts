import { accepted } from '../core/http/envelope.ts';
import { requestState } from '../core/http/request-state.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PriceBody, PropertyParams, PushResult } from './model.ts';
import { PAIR_PUSH_ERRORS, PUSH_RULES } from './push-answer.ts';
import { pushRates, RATES_PUSH } from './rates-push.ts';
import { PUSH_REFUSAL_FIELDS, unknownFieldsField } from './refused-rows.ts';

export const pushRatesRoute = defineRoute({
  ...RATES_PUSH,
  method: 'POST',
  path: '/properties/:property/inventory/rates',
  scope: 'inventory.write',
  bucket: 'inventory-writes',
  principals: 'untouched',
  summary: 'Push prices',
  tags: ['inventory'],
  description: `Exactly one of rate (per_room) or prices (code to value) per row; only manual codes take values,
others are warnings. Optional restriction fields on a price row apply even when its prices do not. ${PUSH_RULES}`,
  params: PropertyParams,
  body: PriceBody,
  status: 202,
  response: PushResult,
  example: {
    status: 'ok',
    message: 'accepted',
    // 31 price day-rows for each row, and 31 restriction day-rows for the second row's min_los.
    data: { written: 93, unchanged: 0, skipped_out_of_window: 0, dry: false, warnings: [] },
  },
  requestExample: {
    values: [
      { room_type_id: 'DBL', rate_plan_id: 'BAR', date_from: '2030-05-01', date_to: '2030-05-31', rate: 129 },
      {
        room_type_id: 'DBL',
        rate_plan_id: 'BAR-PP',
        date_from: '2030-05-01',
        date_to: '2030-05-31',
        prices: { A1: 99, A2: 129 },
        min_los: 2,
      },
    ],
  },
  errors: [...PAIR_PUSH_ERRORS, 'errors.qc.rate_or_prices_required', 'errors.qc.occupancy_pricing_not_supported'],
  errorFields: {
    422: {
      ...PUSH_REFUSAL_FIELDS,
      unknown_fields: unknownFieldsField('errors.qc.rate_or_prices_required', 'values.0.price'),
    },
  },
  handle: inProperty(async ({ deps, principal, body, request }, property) => {
    const undeclared = requestState(request).undeclared;
    return accepted(await pushRates(deps, principal, property, body.values, undeclared));
  }),
});
