import { utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { ApiError } from '../core/http/api-error.ts';
import { comparedDays } from './shadow-days.ts';
import { lastDifference, zeroStreak } from './zero-streak.ts';

/** Where a shadow key stands against the flip to live: shown when it is refused, and when it was forced. */
export interface LiveFlipStanding {
  zero_streak_days: number;
  /** QC_LEGACY_CUTOVER_STREAK_DAYS: the zero streak a key needs before it may be flipped to live unforced. */
  required_streak_days: number;
  /** The latest finished day whose comparisons differed (the one that ended the streak), with its score. */
  last_difference: { date: string; score: number } | null;
  /** Whether any finished day (before today, by the service's clock) compared an exchange of this key. */
  has_comparisons: boolean;
}

/**
 * Spec 9.4 moves a PMS over once its shadow-difference score has stayed at zero. A flip from shadow to live is
 * refused (409 errors.qc.cutover_not_ready, with the standing) while the key's zero streak is short of the
 * required days, since after the flip no comparison runs and a difference can no longer be seen. `force` flips
 * it anyway: the standing it overrode is answered (and the caller logs it); undefined when there was none.
 */
export async function guardLiveFlip(deps: Deps, keyId: number, force: boolean): Promise<LiveFlipStanding | undefined> {
  const required = deps.config.legacyCutover.liveStreakDays;
  const today = utcDay(deps.clock.now());
  const days = (await comparedDays(deps.db, today, keyId)).get(keyId) ?? [];
  const streak = zeroStreak(days, today);
  if (streak >= required) return undefined;
  const standing: LiveFlipStanding = {
    zero_streak_days: streak,
    required_streak_days: required,
    last_difference: lastDifference(days, today) ?? null,
    has_comparisons: days.length > 0,
  };
  if (!force) throw new ApiError('errors.qc.cutover_not_ready', { ...standing });
  return standing;
}
