import { utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { type CredentialReadiness, credentialReadiness, holdingBack } from './readiness.ts';
import { readSunset } from './sunset.ts';
import { SHUTDOWN_STREAK_DAYS } from './zero-streak.ts';

export interface ReadinessView {
  today: string;
  rule_days: number;
  credentials: CredentialReadiness[];
  sunset: {
    date: string;
    endpoints: string[] | null;
    set_at: string;
    reached: boolean;
    /** Credentials that used an affected endpoint in the last rule_days days without meeting the rule. */
    held_back_by: number[];
    /** Reached and nobody holds it back: the affected endpoints answer 410. */
    switched_off: boolean;
  } | null;
}

/** Every credential's mode, zero streak and rule, and whether (and by whom) the sunset is held back. */
export async function readinessView(deps: Deps): Promise<ReadinessView> {
  const today = utcDay(deps.clock.now());
  const [credentials, sunset] = await Promise.all([credentialReadiness(deps.db, today), readSunset(deps.db)]);
  const held = sunset ? holdingBack(credentials, sunset).map((c) => c.id) : [];
  return {
    today,
    rule_days: SHUTDOWN_STREAK_DAYS,
    credentials,
    sunset: sunset
      ? {
          date: sunset.date,
          endpoints: sunset.endpoints,
          set_at: sunset.setAt.toISOString(),
          reached: today >= sunset.date,
          held_back_by: held,
          switched_off: today >= sunset.date && held.length === 0,
        }
      : null,
  };
}
