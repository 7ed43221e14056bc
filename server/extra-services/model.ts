import { t } from 'elysia';
import { Int, NamedRecord, Num, Timestamps } from '../config-surfaces/model.ts';
import { NameTrSchema } from '../core/name-tr.ts';

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/**
 * `price_type` (design; spec 2.9 leaves the values open): what one unit of `price` buys. With `is_daily`
 * the price is per night on top (per selected day for guest-picked dates).
 */
export const PRICE_TYPES = {
  1: 'per booking',
  2: 'per room',
  3: 'per person (adults and children)',
  4: 'per adult',
  5: 'per child',
} as const;
export type PriceType = keyof typeof PRICE_TYPES;

/** "1 per booking, 2 per room, ...": the schema's description and the create route's. */
export const PRICE_TYPE_MEANINGS = Object.entries(PRICE_TYPES)
  .map(([n, meaning]) => `${n} ${meaning}`)
  .join(', ');

const PriceTypeSchema = t.Union(
  Object.keys(PRICE_TYPES).map((n) => t.Literal(Number(n))),
  { description: PRICE_TYPE_MEANINGS },
);

const SelectDates = t.Object(
  {
    type: t.Union([t.Literal('0'), t.Literal('1'), t.Literal('2')], {
      description: "'0' every day of the stay, '1' the guest picks one day, '2' the guest picks a range",
    }),
    min_days: t.Optional(t.Nullable(Int({ minimum: 1, maximum: 365, description: "type '2' only" }))),
    max_days: t.Optional(t.Nullable(Int({ minimum: 1, maximum: 365, description: "type '2' only" }))),
  },
  { description: 'which days of the stay the service applies to' },
);

const serviceFields = {
  name: t.Optional(t.String({ maxLength: 255 })),
  name_tr: t.Optional(NameTrSchema),
  is_daily: t.Optional(t.Boolean()),
  price: Num({ minimum: 0, maximum: 100_000_000 }),
  price_type: PriceTypeSchema,
  do_not_apply_promotions: t.Optional(
    t.Boolean({ description: 'true: promotions and special offers never discount this service' }),
  ),
  active_week_days: t.Optional(
    t.Array(t.Union(WEEK_DAYS.map((d) => t.Literal(d))), {
      minItems: 1,
      maxItems: 7,
      uniqueItems: true,
      description: 'days of the week it is sold on; default all',
    }),
  ),
  client_select_dates_settings: t.Optional(SelectDates),
};

export const CreateExtraServiceBody = t.Object(serviceFields);

/** PATCH: every field optional, and the nested dates settings too (merged field by field with the stored ones). */
export const UpdateExtraServiceBody = t.Partial(
  t.Object({ ...serviceFields, client_select_dates_settings: t.Optional(t.Partial(SelectDates)) }),
);

export type ExtraServiceInput = typeof UpdateExtraServiceBody.static;

export const ExtraServiceSchema = t.Object({
  ...NamedRecord,
  is_daily: t.Boolean(),
  price: t.Number(),
  price_type: t.Integer(),
  do_not_apply_promotions: t.Boolean(),
  active_week_days: t.Array(t.String()),
  client_select_dates_settings: t.Object({
    type: t.String(),
    min_days: t.Nullable(t.Integer()),
    max_days: t.Nullable(t.Integer()),
  }),
  ...Timestamps,
});
