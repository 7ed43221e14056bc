import { t } from 'elysia';
import { Int, Num, Timestamps } from '../config-surfaces/model.ts';
import { Day } from '../core/http/day-schema.ts';
import { NameTrSchema } from '../core/name-tr.ts';

const Nights = t.Optional(t.Nullable(Int({ minimum: 1, maximum: 365 })));

export const CreateSpecialOfferBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(NameTrSchema),
  is_active: t.Optional(t.Boolean()),
  active_from_date: Day,
  active_to_date: Day,
  rate_plans_ids: t.Array(t.String({ minLength: 1 }), {
    minItems: 1,
    maxItems: 500,
    description: "external ids or partner codes of rate plans of the button's property",
  }),
  sfp: t.Optional(
    t.Object(
      { min_nights: Nights, max_nights: Nights },
      { description: 'stay-fit parameters: the stay length the offer is for' },
    ),
  ),
  discount_percent: Num({ exclusiveMinimum: 0, maximum: 100 }),
});

export const UpdateSpecialOfferBody = t.Partial(CreateSpecialOfferBody);
export type SpecialOfferInput = typeof UpdateSpecialOfferBody.static;

export const SpecialOfferSchema = t.Object({
  id: t.String({ format: 'uuid' }),
  booking_button_id: t.String({ format: 'uuid' }),
  name: t.String(),
  name_tr: t.Record(t.String(), t.String()),
  is_active: t.Boolean(),
  active_from_date: Day,
  active_to_date: Day,
  rate_plans_ids: t.Array(t.String({ format: 'uuid' })),
  sfp: t.Object({ min_nights: t.Nullable(t.Integer()), max_nights: t.Nullable(t.Integer()) }),
  discount_percent: t.Number(),
  ...Timestamps,
});
