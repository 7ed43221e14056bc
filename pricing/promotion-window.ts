/**
 * The booking-time window of a promotion (spec 2.9), the one rule both the promotion routes (validation)
 * and the pricing engine (application) read. Times are `HH:MM` on the property's wall clock, 00:00..24:00.
 *
 * `00:00` and `24:00` bypass the comparison: on either side they mean "no bound" (from the start of the
 * day, to its end). Otherwise `resv_to_time` must be later than `resv_from_time`, and a booking made at
 * time T qualifies when from <= T < to.
 */
const OPEN = new Set(['00:00', '24:00']);

export function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether a (from, to) pair is a valid window. */
export function isValidWindow(from: string, to: string): boolean {
  return OPEN.has(from) || OPEN.has(to) || minutesOf(to) > minutesOf(from);
}

/** Whether a booking made at `at` (HH:MM) falls in the window. */
export function bookedInWindow(from: string, to: string, at: string): boolean {
  const t = minutesOf(at);
  return (OPEN.has(from) || t >= minutesOf(from)) && (OPEN.has(to) || t < minutesOf(to));
}
