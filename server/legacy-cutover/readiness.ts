import { addDays } from '../core/days.ts';
import type { Db } from '../core/db/db.ts';
import { comparedDays } from './shadow-days.ts';
import { affects, type SunsetSetting } from './sunset.ts';
import { SHUTDOWN_STREAK_DAYS, zeroStreak } from './zero-streak.ts';

export interface CredentialReadiness {
  id: number;
  property_id: string;
  pms_name: string;
  active: boolean;
  mode: 'shadow' | 'live';
  zero_streak_days: number;
  /** Spec 9.4: a zero shadow-difference score on SHUTDOWN_STREAK_DAYS days with traffic, ending yesterday. */
  meets_rule: boolean;
  /** Legacy endpoints the key called in the SHUTDOWN_STREAK_DAYS days up to today. */
  endpoints_used: string[];
}

/** Every legacy credential with its mode, zero streak and whether it meets the shutdown rule, as of `today` (UTC). */
export async function credentialReadiness(db: Db, today: string): Promise<CredentialReadiness[]> {
  const [keys, days] = await Promise.all([
    db.sql<Omit<CredentialReadiness, 'zero_streak_days' | 'meets_rule'>>`
      select k.id, p.external_id::text as property_id, k.pms_name, k.active, k.cutover_mode as mode,
        coalesce((select array_agg(distinct u.endpoint order by u.endpoint) from legacy_endpoint_usage u
          where u.key_id = k.id and u.day between ${addDays(today, -SHUTDOWN_STREAK_DAYS)}::date and ${today}::date),
          '{}') as endpoints_used
      from legacy_api_keys k join properties p on p.id = k.property_id
      order by k.id`,
    comparedDays(db, today),
  ]);
  return keys.map((key) => {
    const streak = zeroStreak(days.get(key.id) ?? [], today);
    return { ...key, zero_streak_days: streak, meets_rule: streak >= SHUTDOWN_STREAK_DAYS };
  });
}

/**
 * The credentials that keep the sunset's endpoints on: active keys that called an affected endpoint in the
 * last SHUTDOWN_STREAK_DAYS days without meeting the rule. Empty: reaching the date may switch them off.
 */
export function holdingBack(credentials: readonly CredentialReadiness[], sunset: SunsetSetting): CredentialReadiness[] {
  return credentials.filter(
    (c) => c.active && !c.meets_rule && c.endpoints_used.some((endpoint) => affects(sunset, endpoint)),
  );
}
