/**
 * The retry ladder of spec 6.2.6: after a failed attempt the next one waits 5 s, 10 s, 30 s, 5 min, then
 * 1 hour twenty times. A delivery therefore gets at most 25 attempts; when the 25th fails it is dead.
 */
export const LADDER_SECONDS: readonly number[] = [5, 10, 30, 300, ...Array<number>(20).fill(3600)];

export const MAX_ATTEMPTS = LADDER_SECONDS.length + 1;

/** More than this many milliseconds of failures with no success in between disables a subscription. */
export const AUTO_DISABLE_AFTER_MS = 72 * 3600_000;

/** Spec 8.2: the receiver must answer within 5 seconds. */
export const RESPONSE_DEADLINE_MS = 5000;

/**
 * When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at `failedAt`, or undefined
 * when that was the last one. `scale` shrinks the waits for tests and benchmarks.
 */
export function nextAttemptAt(attempt: number, failedAt: Date, scale = 1): Date | undefined {
  const wait = LADDER_SECONDS[attempt - 1];
  if (wait === undefined) return undefined;
  return new Date(failedAt.getTime() + wait * 1000 * scale);
}

/** The next 00:00 UTC after `at`: when the daily webhook-fanout budget resets (spec 8.1). */
export function nextUtcMidnight(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
}
