/**
 * Whether `zone` is an IANA time zone name as the tz database spells it (spec 2.1): `Europe/Lisbon`, `UTC`,
 * `Etc/GMT-2`, and the database's links (`Asia/Calcutta`, `Europe/Kiev`). The runtime must know it under exactly
 * this spelling: Intl also takes `europe/berlin` (and would store it so) and UTC offsets such as `+02:00`, which
 * are no zone (no daylight saving time), and which PostgreSQL's `at time zone` reads with the POSIX sign, the
 * other way round.
 */
export function isTimeZone(zone: string): boolean {
  if (/^[+-]/.test(zone)) return false;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone === zone;
  } catch (err) {
    // Intl refuses an unknown zone with a RangeError; anything else is not the caller's input.
    if (err instanceof RangeError) return false;
    throw err;
  }
}
