import { daysBetween, localToday } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { cancellationFee } from './fee.ts';
import type { CancellationRule } from './model.ts';

export interface FeeBooking {
  property_id: number;
  total_amount: number;
  checkin_date: string;
  checkout_date: string;
  /** The policies frozen when the booking was made (server/bookings/policy-snapshot.ts). */
  policy_snapshot: Record<string, unknown>;
}

/**
 * The fee the cancellation policy in effect when the booking was made charges for cancelling it at `now`
 * (the property's local calendar day) or for a no-show: the rules frozen in the booking's snapshot, never
 * the policy as edited since.
 */
export async function feeUnderSnapshot(tx: Db, booking: FeeBooking, now: Date, noShow = false): Promise<number> {
  const policy = booking.policy_snapshot.cancellation_policy as { rules?: CancellationRule[] } | undefined;
  const rules = Array.isArray(policy?.rules) ? policy.rules : [];
  if (!rules.length) return 0;
  const [property] = await tx.sql<{
    timezone: string;
  }>`select timezone from properties where id = ${booking.property_id}`;
  return cancellationFee(rules, {
    total: Number(booking.total_amount),
    nights: daysBetween(booking.checkin_date, booking.checkout_date),
    checkin: booking.checkin_date,
    on: localToday(property?.timezone ?? 'UTC', now),
    noShow,
  });
}
