import { type RedisClient, RedisScript } from '../redis.ts';
import type { Budget } from './budgets.ts';
import type { Counters, Usage, Windows } from './counters.ts';

// One round trip, atomic: reads both windows, refuses without counting when either is spent, otherwise
// increments both. Window indices come from the service clock (ARGV), so key names change when a window
// passes; the expiries only collect old keys.
const TAKE = new RedisScript(`
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if m >= tonumber(ARGV[1]) or d >= tonumber(ARGV[2]) then return {0, m, d} end
m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('PEXPIRE', KEYS[1], 120000) end
d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('PEXPIRE', KEYS[2], 90000000) end
return {1, m, d}
`);

/** Counters shared by every server process on one Redis: they all spend one budget. */
export class RedisCounters implements Counters {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async take(subject: string, budget: Budget, windows: Windows): Promise<Usage> {
    // The hash tag keeps both keys of a subject in one cluster slot, as a multi-key script requires.
    const base = `${this.prefix}rl:{${subject}}`;
    const [allowed, minuteCount, dayCount] = (await TAKE.run(
      this.redis,
      [`${base}:m:${windows.minute}`, `${base}:d:${windows.day}`],
      [budget.perMinute, budget.perDay],
    )) as [number, number, number];
    return { allowed: allowed === 1, minuteCount, dayCount };
  }
}
