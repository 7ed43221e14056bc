/** Spec 9.4: a credential's legacy may be shut down only after this many days of zero shadow difference. */
export const SHUTDOWN_STREAK_DAYS = 90;

export interface DayCount {
  date: string;
  compared: number;
  different: number;
}

/**
 * Days with a zero score, counted back from yesterday (today is not over). Only days with traffic count: a
 * day without any compared exchange neither adds to the streak nor breaks it (a PMS quiet over a weekend has
 * not differed), and the first day back with a difference ends it. `days` in any order.
 */
export function zeroStreak(days: readonly DayCount[], today: string): number {
  let streak = 0;
  for (const day of [...days].filter((d) => d.date < today).sort((a, b) => b.date.localeCompare(a.date))) {
    if (day.compared === 0) continue;
    if (day.different > 0) break;
    streak++;
  }
  return streak;
}

/** The share of compared exchanges that differed beyond noise; null on a day without comparisons. */
export function dayScore(day: DayCount): number | null {
  return day.compared ? day.different / day.compared : null;
}

/**
 * The latest finished day (before `today`) whose comparisons found a difference, with its score: the day that
 * ended the zero streak, or undefined when no finished day differed. `days` in any order.
 */
export function lastDifference(days: readonly DayCount[], today: string): { date: string; score: number } | undefined {
  const latest = days
    .filter((d) => d.date < today && d.different > 0)
    .reduce<DayCount | undefined>((found, d) => (found && found.date > d.date ? found : d), undefined);
  // A day that differed compared something: its score is never null.
  return latest && { date: latest.date, score: dayScore(latest) ?? 0 };
}
