import { t } from 'elysia';
import { Int, NamedRecord, Num, Timestamps } from '../config-surfaces/model.ts';
import { Day } from '../core/http/day-schema.ts';
import { NameTrSchema } from '../core/name-tr.ts';

/**
 * Promotion types (design): `basic` any time; `early_booker` booked at least `days_before_arrival_min`
 * days ahead; `last_minute` booked at most `days_before_arrival_max` days ahead; `mobile` booked from a
 * mobile device, exempt from stay conditions (spec 2.9).
 */
export const PROMOTION_TYPES = ['basic', 'early_booker', 'last_minute', 'mobile'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];

export const DISCOUNT_TYPES = ['percent', 'amount_per_night'] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

const Time = t.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'HH:MM, 00:00..24:00' });
const Nights = Int({ minimum: 1, maximum: 365 });
const Lead = Int({ minimum: 0, maximum: 1000 });

export const CreatePromotionBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(NameTrSchema),
  type: t.Union(PROMOTION_TYPES.map((p) => t.Literal(p))),
  is_active: t.Optional(t.Boolean()),
  discount_type: t.Union(
    DISCOUNT_TYPES.map((d) => t.Literal(d)),
    { description: 'percent of each night, or an amount off each night (never below 0)' },
  ),
  discount_value: Num({ exclusiveMinimum: 0, maximum: 100_000_000, description: 'percent: at most 100' }),
  stay_from: t.Optional(t.Nullable(Day)),
  stay_to: t.Optional(t.Nullable(Day)),
  book_from: t.Optional(t.Nullable(Day)),
  book_to: t.Optional(t.Nullable(Day)),
  resv_min: t.Optional(t.Nullable(Nights)),
  resv_max: t.Optional(t.Nullable(Nights)),
  resv_from_time: t.Optional(Time),
  resv_to_time: t.Optional(Time),
  days_before_arrival_min: t.Optional(t.Nullable(Lead)),
  days_before_arrival_max: t.Optional(t.Nullable(Lead)),
  rate_plan_ids: t.Optional(
    t.Array(t.String({ minLength: 1 }), {
      maxItems: 500,
      description: 'external ids or partner codes of rate plans of this property; empty: every plan',
    }),
  ),
});

export const UpdatePromotionBody = t.Partial(CreatePromotionBody);
export type PromotionInput = typeof UpdatePromotionBody.static;

const NullableDay = t.Nullable(Day);
const NullableInt = t.Nullable(t.Integer());

export const PromotionSchema = t.Object({
  ...NamedRecord,
  type: t.String(),
  is_active: t.Boolean(),
  discount_type: t.String(),
  discount_value: t.Number(),
  stay_from: NullableDay,
  stay_to: NullableDay,
  book_from: NullableDay,
  book_to: NullableDay,
  resv_min: NullableInt,
  resv_max: NullableInt,
  resv_from_time: t.String(),
  resv_to_time: t.String(),
  days_before_arrival_min: NullableInt,
  days_before_arrival_max: NullableInt,
  rate_plan_ids: t.Array(t.String({ format: 'uuid' })),
  ...Timestamps,
});
