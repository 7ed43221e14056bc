import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import type { PaymentTerms } from './model.ts';

const NEEDS_DAYS = new Set(['af_res', 'be_arr']);

/**
 * Spec 2.9: `num_days` is required for `af_res` and `be_arr`, `date` for `be_dat`. A field the pay type does
 * not use is dropped (answered null), so switching a policy to `on_arr` leaves no stale term behind.
 */
export function paymentTerms(input: PaymentTerms): PaymentTerms {
  const errors: FieldErrors = {};
  const numDays = NEEDS_DAYS.has(input.pay_type) ? input.num_days : null;
  const date = input.pay_type === 'be_dat' ? input.date : null;
  if (NEEDS_DAYS.has(input.pay_type) && numDays === null)
    errors.num_days = ['customer.payment_policy.messages.required'];
  if (input.pay_type === 'be_dat' && date === null) errors.date = ['customer.payment_policy.messages.required'];
  if (Object.keys(errors).length) throw validationError(errors);
  return { pay_type: input.pay_type, num_days: numDays, date };
}
