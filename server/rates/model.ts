import { t } from 'elysia';
import { DateString, WouldFigures } from '../inventory/model.ts';

export const PlanParams = t.Object({ property: t.String(), ratePlan: t.String() });

export const RatesQuery = t.Object({
  from: DateString,
  to: DateString,
  consolidated: t.Optional(t.Union([t.Literal('1'), t.Literal('0'), t.Literal('true'), t.Literal('false')])),
});

const PricesMap = t.Record(t.String(), t.Number(), { description: 'Occupancy code to resolved nightly value' });
const Restrictions = t.Object(
  {
    min_los: t.Optional(t.Integer()),
    max_los: t.Optional(t.Integer()),
    stop_sell: t.Optional(t.Boolean()),
    closed_to_arrival: t.Optional(t.Boolean()),
    closed_to_departure: t.Optional(t.Boolean()),
  },
  { description: 'The restriction fields set on that day' },
);

export const RatesAnswer = t.Object({
  status: t.Literal('ok'),
  message: t.String(),
  data: t.Object({
    rate_plan_id: t.String(),
    parent_rate_plan_id: t.Nullable(t.String()),
    sell_type: t.String(),
    from: t.String(),
    to: t.String(),
    consolidated: t.Boolean(),
    rooms: t.Array(
      t.Object({
        room_type_id: t.String(),
        values: t.Optional(t.Array(t.Object({ date: t.String(), prices: PricesMap, restrictions: Restrictions }))),
        periods: t.Optional(t.Array(t.Object({ from: t.String(), to: t.String(), prices: PricesMap }))),
      }),
    ),
  }),
});

/** Rows are checked one by one by the service (each bad row is a row error, not a 422 of the batch). */
export const RateWriteBody = t.Object({
  values: t.Array(t.Unknown(), { minItems: 1, description: 'Rows {date, prices?, restrictions?, room_type_id?}' }),
});

export const RateWriteAnswer = t.Object({
  status: t.Literal('ok'),
  message: t.String(),
  data: t.Object({
    accepted: t.Integer(),
    written: t.Integer(),
    unchanged: t.Integer(),
    skipped_out_of_window: t.Integer(),
    dry: t.Boolean(),
    would: t.Optional(WouldFigures),
    errors: t.Array(
      t.Object(
        {
          row: t.Integer(),
          code: t.String({
            description:
              'malformed_row, bad_date, bad_acm_key, unknown_acm_code, bad_restriction_key, write_failed, price_on_derived_rate, unknown_room_type',
          }),
        },
        { additionalProperties: true },
      ),
    ),
  }),
});
