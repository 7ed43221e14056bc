import { roundMoney } from '../../pricing/price-engine.ts';
import { daysBetween } from '../core/days.ts';
import type { CancellationRule } from './model.ts';

export interface CancelledStay {
  /** The booking's total price. */
  total: number;
  nights: number;
  checkin: string;
  /** The property-local calendar day of the cancellation (check-in day for a no-show). */
  on: string;
  noShow: boolean;
}

/**
 * The fee a policy charges for a cancellation or no-show: the highest charge among the rules that match
 * (rules never add up: a revenue manager writes "25% within 14 days, 100% within 3 days" and means the
 * stricter one once both apply), never more than the total, rounded by the pricing engine's money rule. No matching rule: free.
 */
export function cancellationFee(rules: readonly CancellationRule[], stay: CancelledStay): number {
  const daysBefore = stay.noShow ? 0 : daysBetween(stay.on, stay.checkin);
  const matches = (r: CancellationRule) => {
    switch (r.c_type) {
      case 'after_booking':
        return true;
      case 'days_before_arrival':
        return r.p_days !== null && daysBefore < r.p_days;
      case 'after_date':
        return r.p_date !== null && (stay.noShow ? stay.checkin : stay.on) >= r.p_date;
      case 'no_show':
        return stay.noShow;
    }
  };
  const charge = (r: CancellationRule) => {
    const value = r.p_value ?? 0;
    if (r.p_type === 'percent') return (stay.total * value) / 100;
    if (r.p_type === 'nights') return stay.nights > 0 ? (stay.total / stay.nights) * Math.min(value, stay.nights) : 0;
    return value;
  };
  const fee = Math.max(0, ...rules.filter(matches).map(charge));
  return roundMoney(Math.min(fee, stay.total));
}
