import { t } from 'elysia';
import { DayText } from '../core/http/day-schema.ts';
import { NameTrSchema } from '../core/name-tr.ts';
import { MODIFIERS, OCCUPANCY_KINDS, SELL_TYPES } from './vocabulary.ts';

const PartnerCode = t.String({ minLength: 1, maxLength: 100 });
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
        t.Object({ from: DayText, to: DayText, percent: t.Optional(Percent), adjust: t.Optional(PercentAdjust) }),
        {
          maxItems: 400,
          description:
            'Per check-in period overrides of the percentage; periods may overlap: a day takes the first listed period that holds it',
        },
      ),
    ),
  },
  { description: 'Child value = parent value x (1 + percent/100), rounded to 2 decimals. Give `percent` or `adjust`.' },
);

export const CreateRatePlanBody = t.Object({
  title: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: t.Optional(NameTrSchema),
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
  name_tr: t.Optional(NameTrSchema),
  meal_plan: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  partner_code: t.Optional(t.Nullable(PartnerCode)),
  payment_policy_id: t.Optional(
    t.String({ minLength: 1, description: 'a live payment policy of this property (422 `not_found` otherwise)' }),
  ),
  cancellation_policy_id: t.Optional(
    t.String({ minLength: 1, description: 'a live cancellation policy of this property (422 `not_found` otherwise)' }),
  ),
});

export const PricingModelBody = t.Object({
  sell_type: SellTypeSchema,
  occupancies: t.Optional(t.Array(WireOccupancySchema, { minItems: 1, maxItems: 200 })),
});

/** What GET one, POST and PATCH answer: said once, in each of their descriptions. */
export const PLAN_DOC = [
  "The plan's own fields (`room_type_ids`, policy ids, `derivation`) and `rate_plans[]`: its pair entries,",
  'the same entries GET /rate_plans lists for this plan (spec 4.3: the entry with `occupancies[]` per pair).',
  '`mappings[]` is the same array under its former name: deprecated, kept throughout v1; read `rate_plans`.',
].join(' ');

export const ENTRY_DOC = [
  'Each pair entry carries `id` (= `external_rate_plan_id`), `room_type_id` (a rate plan id is valid only with',
  "its own room type ids), `parent_rate_plan_id` (the parent's external id, or null), `sell_type`,",
  '`prices_writable` (false for child plans), and `occupancies[]` (spec 2.5 entries `{code, kind, persons?,',
  'derived_from?, modifier?, fee?}`) plus `explicit_occupancies`; a child entry has no `occupancies` and shows',
  'its `derivation` `{percent, periods?}` instead. Path segments take the external id or the partner code.',
].join(' ');

export const VOCABULARY_DOC =
  'Vocabularies per room: per_room `ROOM`; per_person A1..An (n = regular beds), AEB, T/C/I x RB/EB/NB; per_occupancy A1..An and Apn/Tpn/Cpn/Ipn positions (rule and examples in the README, "Occupancy vocabularies").';

/** A stored vocabulary entry (spec 2.5) as answered. */
const OccupancyEntrySchema = t.Object({
  code: t.String(),
  kind: t.Union(OCCUPANCY_KINDS.map((k) => t.Literal(k))),
  persons: t.Optional(t.Integer()),
  derived_from: t.Optional(t.String()),
  modifier: t.Optional(t.Tuple([t.Union(MODIFIERS.map((m) => t.Literal(m))), t.Number()])),
  fee: t.Optional(t.Number()),
  from_age: t.Optional(t.Integer({ description: "child codes: the property's age bracket (GET age-groups)" })),
  to_age: t.Optional(t.Integer()),
});

const StoredDerivation = t.Object({
  percent: t.Number(),
  periods: t.Optional(t.Array(t.Object({ from: t.String(), to: t.String(), percent: t.Number() }))),
});

const PlanFields = {
  external_rate_plan_id: t.String({ format: 'uuid' }),
  id: t.String({ format: 'uuid' }),
  name: t.String(),
  name_tr: t.Record(t.String(), t.String()),
  sell_type: SellTypeSchema,
  parent_rate_plan_id: t.Nullable(t.String({ format: 'uuid' })),
  prices_writable: t.Boolean(),
  meal_plan: t.String(),
  partner_code: t.Nullable(t.String()),
};

/** One (rate plan x room type) entry: a child's shows its derivation, a parent's its vocabulary. */
export const RatePlanEntrySchema = t.Object({
  ...PlanFields,
  room_type_id: t.String({ format: 'uuid' }),
  derivation: t.Optional(t.Nullable(StoredDerivation)),
  occupancies: t.Optional(t.Array(OccupancyEntrySchema)),
  explicit_occupancies: t.Optional(t.Boolean()),
});

/** One rate plan with its pair entries (`rate_plans`, and the deprecated `mappings` alias). */
export const RatePlanSchema = t.Object({
  ...PlanFields,
  derivation: t.Nullable(StoredDerivation),
  payment_policy_id: t.Nullable(t.String({ format: 'uuid' })),
  cancellation_policy_id: t.Nullable(t.String({ format: 'uuid' })),
  room_type_ids: t.Array(t.String({ format: 'uuid' })),
  rate_plans: t.Array(RatePlanEntrySchema, {
    description: 'One entry per (rate plan x room type) pair, the same entries GET /rate_plans lists',
  }),
  mappings: t.Array(RatePlanEntrySchema, {
    deprecated: true,
    description:
      'Deprecated: the same array as `rate_plans`, kept throughout v1 for partners that read it; read `rate_plans`',
  }),
});

export const PricingModelResultSchema = t.Object({
  rate_plan_id: t.String({ format: 'uuid' }),
  sell_type: SellTypeSchema,
  pairs_updated: t.Integer(),
  explicit_occupancies: t.Boolean(),
  skipped: t.Optional(t.Literal('derived_plan')),
});
