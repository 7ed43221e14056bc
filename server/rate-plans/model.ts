import { t } from 'elysia';
import { SELL_TYPES } from './vocabulary.ts';

const PartnerCode = t.String({ minLength: 1, maxLength: 100 });
const IsoDate = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Percent = t.Number({ exclusiveMinimum: -100, maximum: 1000, description: 'e.g. -10 for 10% below the parent' });
const PercentAdjust = t.String({ pattern: '^[+-]\\d+(\\.\\d+)?%$', description: 'e.g. "-10%"; same as `percent`' });

export const SellTypeSchema = t.Union(SELL_TYPES.map((s) => t.Literal(s)));

export const RatePlanParams = t.Object({ property: t.String(), ratePlan: t.String() });

export const WireOccupancySchema = t.Object({
  code: t.String({ minLength: 1, maxLength: 20 }),
  pricing: t.Optional(
    t.Object(
      {
        derived_from: t.String({ minLength: 1, maxLength: 20, description: 'A manual code of the same pair' }),
        adjust: t.String({ description: 'Sign, number, optional %: "-10%" (percentage), "+5" (flat amount)' }),
      },
      { description: 'Present: the code is derived from another one at read time' },
    ),
  ),
  kind: t.Optional(
    t.Union([t.Literal('manual'), t.Literal('fee'), t.Literal('cost_free'), t.Literal('inactive')], {
      description:
        'Additive: kinds the spec wire form cannot express; default manual (derived when `pricing` is present)',
    }),
  ),
  fee: t.Optional(t.Number({ minimum: 0, description: 'The fixed amount of a `fee` code' })),
});

export const DerivationSchema = t.Object(
  {
    percent: t.Optional(Percent),
    adjust: t.Optional(PercentAdjust),
    periods: t.Optional(
      t.Array(
        t.Object({ from: IsoDate, to: IsoDate, percent: t.Optional(Percent), adjust: t.Optional(PercentAdjust) }),
        {
          maxItems: 400,
          description: 'Per check-in period overrides of the percentage',
        },
      ),
    ),
  },
  { description: 'Child value = parent value x (1 + percent/100), rounded to 2 decimals. Give `percent` or `adjust`.' },
);

export const CreateRatePlanBody = t.Object({
  title: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(t.Record(t.String({ pattern: '^[a-z]{2}-[A-Z]{2}$' }), t.String())),
  room_type_ids: t.Optional(
    t.Array(t.String({ minLength: 1 }), {
      uniqueItems: true,
      maxItems: 200,
      description: 'External ids or partner codes',
    }),
  ),
  sell_type: t.Optional(SellTypeSchema),
  meal_plan: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  occupancies: t.Optional(t.Array(WireOccupancySchema, { minItems: 1, maxItems: 200 })),
  parent_rate_plan_id: t.Optional(t.Nullable(t.String({ minLength: 1 }))),
  derivation: t.Optional(DerivationSchema),
  payment_policy_id: t.Optional(t.Nullable(t.String({ minLength: 1 }))),
  cancellation_policy_id: t.Optional(t.Nullable(t.String({ minLength: 1 }))),
  partner_code: t.Optional(PartnerCode),
});

export const UpdateRatePlanBody = t.Object({
  sell_type: t.Optional(SellTypeSchema),
  title: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  name_tr: t.Optional(t.Record(t.String({ pattern: '^[a-z]{2}-[A-Z]{2}$' }), t.String())),
  meal_plan: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  partner_code: t.Optional(t.Nullable(PartnerCode)),
});

export const PricingModelBody = t.Object({
  sell_type: SellTypeSchema,
  occupancies: t.Optional(t.Array(WireOccupancySchema, { minItems: 1, maxItems: 200 })),
});
