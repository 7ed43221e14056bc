import { type RedisClient, RedisScript } from '../redis.ts';
import type { Budget } from './budgets.ts';
import type { Counters, Usage, Windows } from './counters.ts';

// One round trip, atomic, for `n` requests of one subject at once: reads both windows, grants as many of the n as
// both have room for, and counts only those. Granting k of n in one step leaves the counters, and gives each
// request the counts, exactly as n single takes in a row would (request i of the k granted sees m - k + i + 1; the
// refused see m). Window indices come from the service clock (ARGV), so key names change when a window passes; the
// expiries only collect old keys (a key is new when INCRBY answers the amount added).
const TAKE = new RedisScript(`
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local k = math.min(tonumber(ARGV[3]), tonumber(ARGV[1]) - m, tonumber(ARGV[2]) - d)
if k <= 0 then return {0, m, d} end
m = redis.call('INCRBY', KEYS[1], k)
if m == k then redis.call('PEXPIRE', KEYS[1], 120000) end
d = redis.call('INCRBY', KEYS[2], k)
if d == k then redis.call('PEXPIRE', KEYS[2], 90000000) end
return {k, m, d}
`);

interface Waiter {
  resolve: (usage: Usage) => void;
  reject: (err: unknown) => void;
}

/** The takes of one subject, window pair and budget not yet sent, and whether a script for them is under way. */
interface Line {
  subject: string;
  budget: Budget;
  windows: Windows;
  waiting: Waiter[];
  sending: boolean;
}

/**
 * Counters shared by every server process on one Redis: they all spend one budget.
 *
 * Concurrent takes of one subject (one client's requests) go to Redis together, as one script call (issue 27:
 * Bun runs each request in a tick of its own, so auto-pipelining sent one write, and woke up for one reply, per
 * request; the script was the largest cost the pipeline added to a read). Takes made in one turn of the event loop
 * are sent at its end (setImmediate); those made while a script of their subject is under way are sent as soon as
 * it answers. Exact either way: Redis counts the batch in one atomic step, as it would count them one by one.
 */
export class RedisCounters implements Counters {
  readonly #lines = new Map<string, Line>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  take(subject: string, budget: Budget, windows: Windows): Promise<Usage> {
    const key = `${subject}\n${windows.minute}\n${windows.day}\n${budget.perMinute}\n${budget.perDay}`;
    let line = this.#lines.get(key);
    if (!line) {
      line = { subject, budget, windows, waiting: [], sending: false };
      this.#lines.set(key, line);
    }
    const waiting = line.waiting;
    if (waiting.length === 0 && !line.sending) {
      const scheduled = line;
      setImmediate(() => this.#send(key, scheduled));
    }
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  async #send(key: string, line: Line): Promise<void> {
    const waiters = line.waiting;
    line.waiting = [];
    line.sending = true;
    // The hash tag keeps both keys of a subject in one cluster slot, as a multi-key script requires.
    const base = `${this.prefix}rl:{${line.subject}}`;
    try {
      const [granted, minuteCount, dayCount] = (await TAKE.run(
        this.redis,
        [`${base}:m:${line.windows.minute}`, `${base}:d:${line.windows.day}`],
        [line.budget.perMinute, line.budget.perDay, waiters.length],
      )) as [number, number, number];
      for (let i = 0; i < waiters.length; i++)
        waiters[i]?.resolve(
          i < granted
            ? { allowed: true, minuteCount: minuteCount - granted + i + 1, dayCount: dayCount - granted + i + 1 }
            : { allowed: false, minuteCount, dayCount },
        );
    } catch (err) {
      for (const waiter of waiters) waiter.reject(err);
    } finally {
      line.sending = false;
      if (line.waiting.length > 0) void this.#send(key, line);
      else this.#lines.delete(key);
    }
  }
}
