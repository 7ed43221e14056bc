import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import type { CancellationRule } from './model.ts';

const message = (rule: string) => [`customer.cancellation_policy.messages.${rule}`];

/**
 * Each rule's terms, checked with the field path of the rule (`data.3.p_days`): the condition's own term
 * (`p_days` for days_before_arrival, `p_date` for after_date) and the charge's value (percent 0..100, whole
 * nights >= 1, amount >= 0). Terms a rule does not use are stored null.
 */
export function cancellationRules(rules: readonly Partial<CancellationRule>[]): CancellationRule[] {
  const errors: FieldErrors = {};
  const out = rules.map((r, i): CancellationRule => {
    const at = (field: string) => `data.${i}.${field}`;
    const days = r.c_type === 'days_before_arrival' ? (r.p_days ?? null) : null;
    const date = r.c_type === 'after_date' ? (r.p_date ?? null) : null;
    const value = r.p_value ?? null;
    if (r.c_type === 'days_before_arrival' && days === null) errors[at('p_days')] = message('required');
    if (r.c_type === 'after_date' && date === null) errors[at('p_date')] = message('required');
    if (value === null) errors[at('p_value')] = message('required');
    else if (r.p_type === 'percent' && (value <= 0 || value > 100)) errors[at('p_value')] = message('percent');
    else if (r.p_type === 'nights' && (!Number.isInteger(value) || value < 1))
      errors[at('p_value')] = message('nights');
    return {
      c_type: r.c_type as CancellationRule['c_type'],
      p_type: r.p_type as CancellationRule['p_type'],
      p_days: days,
      p_date: date,
      p_value: value,
    };
  });
  if (Object.keys(errors).length) throw validationError(errors);
  return out;
}
