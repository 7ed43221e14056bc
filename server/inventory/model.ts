import { Type } from '@sinclair/typebox';
import { type Static, t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';
import { acceptedSchema, okSchema } from '../core/http/envelope.ts';

/** `YYYY-MM-DD`; whether it is a real calendar date is checked beside the ranges (rule `format`). */

const Id = t.String({ minLength: 1, description: 'External id (UUID) or partner code' });
const Price = t.Number({ minimum: 0, maximum: 100_000_000 });
// TypeBox's own Integer: Elysia's t.Integer is a union with numeric strings, whose failure reads as `invalid`.
const Los = Type.Integer({ minimum: 1, maximum: 999 });

export const RestrictionFieldsSchema = {
  min_los: t.Optional(Los),
  max_los: t.Optional(Los),
  stop_sell: t.Optional(t.Boolean()),
  closed_to_arrival: t.Optional(t.Boolean()),
  closed_to_departure: t.Optional(t.Boolean()),
};

const Range = { date_from: DayText, date_to: DayText };

export const AvailabilityRow = t.Object({
  room_type_id: Id,
  ...Range,
  availability: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: 'Free rooms; the service adds its booked count',
  }),
});

export const PriceRow = t.Object({
  room_type_id: Id,
  rate_plan_id: Id,
  ...Range,
  rate: t.Optional(Price),
  prices: t.Optional(t.Record(t.String(), Price, { description: 'Occupancy code to nightly value' })),
  ...RestrictionFieldsSchema,
});

export const RestrictionRow = t.Object({ room_type_id: Id, rate_plan_id: Id, ...Range, ...RestrictionFieldsSchema });

/** Row limits are checked after validation, so that a batch over them answers errors.qc.batch_too_large. */
const batchOf = <T extends ReturnType<typeof t.Object>>(row: T) => t.Object({ values: t.Array(row, { minItems: 1 }) });
export const AvailabilityBody = batchOf(AvailabilityRow);
export const PriceBody = batchOf(PriceRow);
export const RestrictionBody = batchOf(RestrictionRow);

export type AvailabilityRowInput = Static<typeof AvailabilityRow>;
export type PriceRowInput = Static<typeof PriceRow>;
export type RestrictionRowInput = Static<typeof RestrictionRow>;

export const PropertyParams = t.Object({ property: t.String() });

export const RangeQuery = t.Object({ from: DayText, to: DayText });

export const Warning = t.Object(
  {
    row: t.Optional(t.Integer({ description: 'Index of the row in `values` (absent for a field outside `values`)' })),
    field: t.Optional(t.String({ description: '`errors.qc.unknown_field`: the path of the undeclared field' })),
    key: t.String({ description: 'Error key of spec 7.2' }),
    room_type_id: t.Optional(t.String()),
    rate_plan_id: t.Optional(t.String()),
    code: t.Optional(t.String()),
    kind: t.Optional(t.String()),
    allowed_codes: t.Optional(t.Array(t.String())),
    parent_rate_plan_id: t.Optional(t.Nullable(t.String())),
  },
  { additionalProperties: true },
);

/** A calendar write's day-row counters (spec 4.4): changed, already so, outside the accepted window. */
export const DayRowCounters = {
  written: t.Integer({ minimum: 0 }),
  unchanged: t.Integer({ minimum: 0 }),
  skipped_out_of_window: t.Integer({ minimum: 0 }),
};

/** What a push to a shadow property would have done had the property been live (added to spec 4.4). */
export const WouldFigures = t.Object(
  { ...DayRowCounters },
  { description: 'Shadow property only: what the push would have done had the property been live' },
);

/** The 202 answer of the three inventory pushes (spec 4.4), plus `would` on a shadow property. */
export const PushResult = acceptedSchema(
  t.Object({
    ...DayRowCounters,
    dry: t.Boolean(),
    would: t.Optional(WouldFigures),
    warnings: t.Array(Warning),
  }),
);

/** GET /availability: rooms to dates to free rooms. */
export const AvailabilityAnswer = okSchema(
  t.Object({
    from: DayText,
    to: DayText,
    rooms: t.Array(
      t.Object({
        room_type_id: t.String(),
        partner_code: t.Nullable(t.String()),
        dates: t.Record(t.String(), t.Integer({ minimum: 0 }), {
          description: 'Date to free rooms, every date of the range in order; a date never pushed reads 0',
        }),
      }),
    ),
  }),
);
