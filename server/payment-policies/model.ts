import { t } from 'elysia';
import { Int, NamedRecord, Num, Timestamps } from '../config-surfaces/model.ts';
import { Day } from '../core/http/day-schema.ts';
import { NameTrSchema } from '../core/name-tr.ts';

/** Spec 2.9: when the guest pays. */
export const PAY_TYPES = ['on_res', 'af_res', 'be_arr', 'on_arr', 'on_dep', 'be_dat'] as const;
export type PayType = (typeof PAY_TYPES)[number];

const PayType = t.Union(
  PAY_TYPES.map((p) => t.Literal(p)),
  {
    description:
      'on_res at reservation; af_res num_days after reservation; be_arr num_days before arrival; on_arr on arrival; on_dep on departure; be_dat before `date`',
  },
);

const fields = {
  name: t.String({ minLength: 1, maxLength: 255 }),
  name_tr: NameTrSchema,
  pay_type: PayType,
  num_days: t.Nullable(Int({ minimum: 1, maximum: 1000, description: 'required for af_res and be_arr' })),
  date: t.Nullable(Day),
  percent: Num({
    exclusiveMinimum: 0,
    maximum: 100,
    description: 'share of the stay total due under pay_type (a deposit below 100); default 100',
  }),
};

export const CreatePaymentPolicyBody = t.Object({
  name: fields.name,
  name_tr: t.Optional(fields.name_tr),
  pay_type: fields.pay_type,
  num_days: t.Optional(fields.num_days),
  date: t.Optional({ ...fields.date, description: 'YYYY-MM-DD; required for be_dat' }),
  percent: t.Optional(fields.percent),
});

export const UpdatePaymentPolicyBody = t.Partial(CreatePaymentPolicyBody);

export const PaymentPolicySchema = t.Object({
  ...NamedRecord,
  pay_type: PayType,
  num_days: t.Nullable(t.Integer()),
  date: t.Nullable(Day),
  percent: t.Number(),
  is_placeholder: t.Boolean({
    description: 'true for the policy seeded by the first rate plan until the partner edits it',
  }),
  ...Timestamps,
});

export interface PaymentTerms {
  pay_type: PayType;
  num_days: number | null;
  date: string | null;
}
