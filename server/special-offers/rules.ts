import { ApiError, fieldError } from '../core/http/api-error.ts';

export interface OfferTerms {
  active_from_date: string;
  active_to_date: string;
  min_nights: number | null;
  max_nights: number | null;
}

/**
 * Spec 2.9: `sfp.min_nights` greater than `sfp.max_nights` is 422 `errors.qc.sfp_min_gt_max_nights`; our
 * design adds that the active dates are not inverted (422 on `active_to_date`).
 */
export function checkOfferTerms(terms: OfferTerms): void {
  if (terms.min_nights !== null && terms.max_nights !== null && terms.min_nights > terms.max_nights)
    throw new ApiError('errors.qc.sfp_min_gt_max_nights', {
      errors: { 'sfp.min_nights': ['customer.special_offer.messages.gt_max_nights'] },
    });
  if (terms.active_from_date > terms.active_to_date)
    throw fieldError('special_offer', 'active_to_date', 'before_active_from_date');
}
