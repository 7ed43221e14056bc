import { t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';
import { okSchema } from '../core/http/envelope.ts';
import { type RateRowErrorCode, rateRowErrorCatalogue } from '../core/http/error-catalogue.ts';
import { DayRowCounters, WouldFigures } from '../inventory/model.ts';
import { RateWriteRow } from './write-rows.ts';

export const PlanParams = t.Object({ property: t.String(), ratePlan: t.String() });

export const RatesQuery = t.Object({
  from: DayText,
  to: DayText,
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

/**
 * One entry of `values`: anything, since the service checks rows one by one (a bad row is a row error, not a 422
 * of the batch), with the row fields of RateWriteRow named in `properties` (which JSON Schema applies only to an
 * entry that is an object). The undeclared-field walk (server/core/http/undeclared-fields.ts) reads them, so a
 * misspelled `roomtype_id` is named `values.N.roomtype_id` instead of vanishing while the row writes every room
 * type; the fields' contents are not walked (an unknown restriction key is already the row error
 * bad_restriction_key). Not a union of a row object and t.Unknown(): Elysia's exact mirror then cleaned the rows
 * and turned a `values` object into `[null]`, a 200 where a body without a values array is a 422.
 */
const RateRowEntry = t.Unknown({
  properties: Object.fromEntries(Object.keys(RateWriteRow.properties).map((field) => [field, t.Unknown()])),
});

export const RateWriteBody = t.Object({
  values: t.Array(RateRowEntry, { minItems: 1, description: 'Rows {date, prices?, restrictions?, room_type_id?}' }),
});

const RowErrorCode = t.Union(
  Object.keys(rateRowErrorCatalogue).map((code) => t.Literal(code as RateRowErrorCode)),
  { description: 'Codes of spec 7.2 (server/core/http/error-catalogue.ts rateRowErrorCatalogue)' },
);

/** The per-plan write's 200 answer: accepted rows, day-row counters (`would` on a shadow property), row errors. */
export const RateWriteAnswer = okSchema(
  t.Object({
    accepted: t.Integer({ minimum: 0 }),
    ...DayRowCounters,
    dry: t.Boolean(),
    would: t.Optional(WouldFigures),
    errors: t.Array(
      t.Object({
        row: t.Integer({ description: 'Index of the row in `values`' }),
        code: RowErrorCode,
        message: t.Optional(t.String()),
        field: t.Optional(t.String()),
        date: t.Optional(t.String()),
        room_type_id: t.Optional(t.String()),
        unknown_code: t.Optional(t.String()),
        allowed_codes: t.Optional(t.Array(t.String())),
      }),
    ),
  }),
);
