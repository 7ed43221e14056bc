import { addDays, daysBetween, daysOf, utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { notFound, validationError } from '../core/http/api-error.ts';
import {
  comparedDays,
  type EndpointCount,
  type RuleCount,
  readDays,
  readEndpoints,
  readRules,
  readSamples,
  type ShadowSample,
} from './shadow-days.ts';
import { dayScore, SHUTDOWN_STREAK_DAYS, zeroStreak } from './zero-streak.ts';

/** Days one request may ask for. */
export const MAX_RANGE_DAYS = 366;
/** Days answered when `from` is not given. */
const DEFAULT_RANGE_DAYS = 30;

export interface ScoreDay {
  date: string;
  compared: number;
  different: number;
  /** different / compared; null on a day without comparisons. */
  score: number | null;
  unanswered: number;
  overflowed: number;
  /** Exchanges whose comparison failed (the actor's lock, a database error): lost, not held against the port. */
  failed: number;
  /** Compared exchanges that differed only in fields the ignore rules forgave: counted equal, not different. */
  forgiven: number;
  noise_fields: string[];
}

export interface ShadowScores {
  key_id: number;
  from: string;
  to: string;
  days: ScoreDay[];
  /** The range's comparisons per endpoint, most differences first. */
  endpoints: EndpointCount[];
  /** The ignore rules that forgave a difference in the range: exchanges each, most first, and the first field. */
  ignore_rules: RuleCount[];
  zero_streak_days: number;
  meets_rule: boolean;
  samples: ShadowSample[];
}

/**
 * A key's shadow-difference score per UTC day from `from` to `to` (every day listed, quiet ones with nothing
 * compared), its zero streak (counted from all its days, not only those asked for) and the samples kept.
 */
export async function shadowScores(
  deps: Deps,
  keyId: number,
  range: { from?: string; to?: string },
): Promise<ShadowScores> {
  const today = utcDay(deps.clock.now());
  const to = range.to ?? today;
  const from = range.from ?? addDays(to, 1 - DEFAULT_RANGE_DAYS);
  if (daysBetween(from, to) < 0) throw validationError({ from: ['customer.legacy_key.messages.before_to'] });
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) throw validationError({ from: ['customer.legacy_key.messages.max'] });
  const [key] = await deps.db.sql<{ id: number }>`select id from legacy_api_keys where id = ${keyId}`;
  if (!key) throw notFound();
  const [rows, endpoints, rules, history, samples] = await Promise.all([
    readDays(deps.db, keyId, from, to),
    readEndpoints(deps.db, keyId, from, to),
    readRules(deps.db, keyId, from, to),
    comparedDays(deps.db, today, keyId),
    readSamples(deps.db, keyId, from, to, today),
  ]);
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const days = daysOf(from, to).map((date): ScoreDay => {
    const row = byDate.get(date) ?? {
      date,
      compared: 0,
      different: 0,
      unanswered: 0,
      overflowed: 0,
      failed: 0,
      forgiven: 0,
      noise_fields: [],
    };
    return { ...row, score: dayScore(row) };
  });
  const streak = zeroStreak(history.get(keyId) ?? [], today);
  return {
    key_id: keyId,
    from,
    to,
    days,
    endpoints,
    ignore_rules: rules,
    zero_streak_days: streak,
    meets_rule: streak >= SHUTDOWN_STREAK_DAYS,
    samples,
  };
}
