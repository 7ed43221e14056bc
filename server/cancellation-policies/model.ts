import { t } from 'elysia';
import { Int, NamedRecord, Num, Timestamps } from '../config-surfaces/model.ts';
import { Day } from '../core/http/day-schema.ts';
import { NameTrSchema } from '../core/name-tr.ts';

/**
 * When a rule applies (design; spec 2.9 leaves the value set open):
 * - `after_booking`: from the moment of booking (a non-refundable rate); also on a no-show.
 * - `days_before_arrival`: a cancellation fewer than `p_days` days before the check-in day (so "free until
 *   7 days before arrival" is `p_days: 7`); a no-show counts as 0 days before.
 * - `after_date`: a cancellation on or after `p_date` (property-local calendar); a no-show when check-in is on
 *   or after it.
 * - `no_show`: only a no-show.
 */
export const C_TYPES = ['after_booking', 'days_before_arrival', 'after_date', 'no_show'] as const;
export type CType = (typeof C_TYPES)[number];

/**
 * What a rule charges: `percent` of the booking total (`p_value` 0 < v <= 100), `nights` the price of the
 * `p_value` nights at the stay's average nightly price (whole nights, at most the stay), `amount` a fixed sum in the booking currency.
 */
export const P_TYPES = ['percent', 'nights', 'amount'] as const;
export type PType = (typeof P_TYPES)[number];

export const RuleSchema = t.Object({
  c_type: t.Union(
    C_TYPES.map((c) => t.Literal(c)),
    { description: 'after_booking | days_before_arrival (needs p_days) | after_date (needs p_date) | no_show' },
  ),
  p_type: t.Union(
    P_TYPES.map((p) => t.Literal(p)),
    { description: 'percent (p_value 0..100) | nights (p_value whole nights) | amount (p_value money)' },
  ),
  p_days: t.Optional(t.Nullable(Int({ minimum: 1, maximum: 1000 }))),
  p_date: t.Optional(t.Nullable(Day)),
  p_value: t.Optional(t.Nullable(Num({ minimum: 0, maximum: 100_000_000 }))),
});

export interface CancellationRule {
  c_type: CType;
  p_type: PType;
  p_days: number | null;
  p_date: string | null;
  p_value: number | null;
}

const Rules = t.Array(RuleSchema, {
  maxItems: 50,
  description: 'at most 50 rules; the highest matching charge applies',
});

export const CreateCancellationPolicyBody = t.Object({
  name: t.Optional(t.String({ maxLength: 255, description: 'defaults to the first name_tr value' })),
  name_tr: t.Optional(NameTrSchema),
  data: Rules,
});

export const UpdateCancellationPolicyBody = t.Partial(CreateCancellationPolicyBody);

export const CancellationPolicySchema = t.Object({
  ...NamedRecord,
  data: t.Array(
    t.Object({
      c_type: t.String(),
      p_type: t.String(),
      p_days: t.Nullable(t.Integer()),
      p_date: t.Nullable(t.String()),
      p_value: t.Nullable(t.Number()),
    }),
  ),
  is_placeholder: t.Boolean(),
  ...Timestamps,
});
