import type { PromotionTerms as EngineTerms } from '../../pricing/discounts.ts';
import { isValidWindow } from '../../pricing/promotion-window.ts';
import { type FieldErrors, validationError } from '../core/http/api-error.ts';
import type { DiscountType, PromotionType } from './model.ts';

/** A promotion's terms after a create or a PATCH merge, before they are written (the engine reads the same). */
export type PromotionTerms = Omit<
  EngineTerms,
  'id' | 'name' | 'is_active' | 'rate_plan_ids' | 'type' | 'discount_type'
> & {
  type: PromotionType;
  discount_type: DiscountType;
};

const message = (rule: string) => [`customer.promotion.messages.${rule}`];

/**
 * The cross-field rules of spec 2.9 and of our design, each failure a 422 on its field path:
 * resv_min <= resv_max; resv_to_time later than resv_from_time unless one is 00:00 or 24:00; windows not
 * inverted; a percent of at most 100; early_booker needs days_before_arrival_min, last_minute
 * days_before_arrival_max. A mobile promotion is exempt from stay conditions: its stay window and
 * resv_min/resv_max are neither checked nor kept (answered null).
 */
export function promotionTerms(input: PromotionTerms): PromotionTerms {
  const terms =
    input.type === 'mobile' ? { ...input, stay_from: null, stay_to: null, resv_min: null, resv_max: null } : input;
  const errors: FieldErrors = {};
  const inverted = (a: number | string | null, b: number | string | null) => a !== null && b !== null && a > b;
  if (inverted(terms.resv_min, terms.resv_max)) errors.resv_min = message('resv_min_gt_resv_max');
  if (!isValidWindow(terms.resv_from_time, terms.resv_to_time))
    errors.resv_to_time = message('resv_to_time_not_after_resv_from_time');
  if (inverted(terms.stay_from, terms.stay_to)) errors.stay_to = message('before_stay_from');
  if (inverted(terms.book_from, terms.book_to)) errors.book_to = message('before_book_from');
  if (inverted(terms.days_before_arrival_min, terms.days_before_arrival_max))
    errors.days_before_arrival_min = message('gt_days_before_arrival_max');
  if (terms.type === 'early_booker' && terms.days_before_arrival_min === null)
    errors.days_before_arrival_min = message('required');
  if (terms.type === 'last_minute' && terms.days_before_arrival_max === null)
    errors.days_before_arrival_max = message('required');
  if (terms.discount_type === 'percent' && terms.discount_value > 100) errors.discount_value = message('percent');
  if (Object.keys(errors).length) throw validationError(errors);
  return terms;
}
