import { Cluster } from 'ioredis';
import { type RedisClient, RedisScript } from '../redis.ts';
import type { Budget } from './budgets.ts';
import type { Counters, Usage, Windows } from './counters.ts';

// One round trip, atomic, for the takes of several lines at once. A line is `n` requests of one subject under one
// budget and window pair (KEYS 2i-1 and 2i: its minute and day counters; ARGV 3i-2..3i: per minute, per day, n). Each
// line, in order, reads both windows, grants as many of its n as both have room for, and counts only those. Granting
// k of n in one step leaves the counters, and gives each request the counts, exactly as n single takes in a row would
// (request i of the k granted sees m - k + i + 1; the refused see m); lines of one script are counted one after the
// other, as separate scripts in that order would count them. Window indices come from the service clock (ARGV), so
// key names change when a window passes; the expiries only collect old keys (a key is new when INCRBY answers the
// amount added). Answers k, m, d for each line.
const TAKE = new RedisScript(`
local answers = {}
for i = 1, #KEYS / 2 do
  local minuteKey, dayKey = KEYS[2 * i - 1], KEYS[2 * i]
  local m = tonumber(redis.call('GET', minuteKey) or '0')
  local d = tonumber(redis.call('GET', dayKey) or '0')
  local k = math.min(tonumber(ARGV[3 * i]), tonumber(ARGV[3 * i - 2]) - m, tonumber(ARGV[3 * i - 1]) - d)
  if k <= 0 then
    k = 0
  else
    m = redis.call('INCRBY', minuteKey, k)
    if m == k then redis.call('PEXPIRE', minuteKey, 120000) end
    d = redis.call('INCRBY', dayKey, k)
    if d == k then redis.call('PEXPIRE', dayKey, 90000000) end
  end
  answers[3 * i - 2], answers[3 * i - 1], answers[3 * i] = k, m, d
end
return answers
`);

/** Lines one script carries at most: a script runs alone on its Redis, so a burst of subjects is cut into several. */
const LINES_PER_SCRIPT = 100;

interface Waiter {
  resolve: (usage: Usage) => void;
  reject: (err: unknown) => void;
}

/** The takes of one subject, window pair and budget not yet sent. */
interface Line {
  subject: string;
  budget: Budget;
  windows: Windows;
  waiting: Waiter[];
}

/** Takes that go to Redis together, with at most one round of scripts under way at a time. */
interface Lane {
  /** Lines not yet sent, by subject, windows and budget. */
  lines: Map<string, Line>;
  sending: boolean;
}

/**
 * Counters shared by every server process on one Redis: they all spend one budget.
 *
 * Concurrent takes go to Redis together, as one script call (issue 27: Bun runs each request in a tick of its own,
 * so auto-pipelining sent one script, and woke up for one reply, per request; the script was the largest cost the
 * pipeline added to a read). Takes made in one turn of the event loop are sent at its end (setImmediate); those made
 * while a script of their lane is under way are sent as soon as it answers. On one Redis every subject shares one
 * lane, so twenty clients reading at once cost about as few scripts as one client on twenty connections; on a
 * Redis Cluster a lane is one subject, since a script's keys must share a slot (the hash tag) and a slow node must
 * only hold up the subjects it serves. Exact either way: Redis counts a script's takes in one atomic step, as it
 * would count them one by one.
 */
export class RedisCounters implements Counters {
  readonly #lanes = new Map<string, Lane>();
  readonly #perSubject: boolean;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.#perSubject = redis instanceof Cluster;
  }

  take(subject: string, budget: Budget, windows: Windows): Promise<Usage> {
    const laneKey = this.#perSubject ? subject : '';
    let lane = this.#lanes.get(laneKey);
    if (!lane) {
      lane = { lines: new Map(), sending: false };
      this.#lanes.set(laneKey, lane);
    }
    if (lane.lines.size === 0 && !lane.sending) {
      const scheduled = lane;
      setImmediate(() => this.#send(laneKey, scheduled));
    }
    const key = `${subject}\n${windows.minute}\n${windows.day}\n${budget.perMinute}\n${budget.perDay}`;
    let line = lane.lines.get(key);
    if (!line) {
      line = { subject, budget, windows, waiting: [] };
      lane.lines.set(key, line);
    }
    const waiting = line.waiting;
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  async #send(laneKey: string, lane: Lane): Promise<void> {
    const lines = [...lane.lines.values()];
    lane.lines.clear();
    lane.sending = true;
    const scripts: Promise<void>[] = [];
    for (let i = 0; i < lines.length; i += LINES_PER_SCRIPT)
      scripts.push(this.#run(lines.slice(i, i + LINES_PER_SCRIPT)));
    await Promise.all(scripts);
    lane.sending = false;
    if (lane.lines.size > 0) void this.#send(laneKey, lane);
    else this.#lanes.delete(laneKey);
  }

  /** One script for these lines; every waiter hears its answer, or the script's failure. Never rejects. */
  async #run(lines: Line[]): Promise<void> {
    const keys: string[] = [];
    const args: number[] = [];
    for (const line of lines) {
      // The hash tag keeps both keys of a subject in one cluster slot, as a multi-key script requires.
      const base = `${this.prefix}rl:{${line.subject}}`;
      keys.push(`${base}:m:${line.windows.minute}`, `${base}:d:${line.windows.day}`);
      args.push(line.budget.perMinute, line.budget.perDay, line.waiting.length);
    }
    let answers: number[];
    try {
      answers = (await TAKE.run(this.redis, keys, args)) as number[];
    } catch (err) {
      for (const line of lines) for (const waiter of line.waiting) waiter.reject(err);
      return;
    }
    for (let l = 0; l < lines.length; l++) {
      const waiting = lines[l]?.waiting ?? [];
      const granted = answers[3 * l] ?? 0;
      const minuteCount = answers[3 * l + 1] ?? 0;
      const dayCount = answers[3 * l + 2] ?? 0;
      for (let i = 0; i < waiting.length; i++)
        waiting[i]?.resolve(
          i < granted
            ? { allowed: true, minuteCount: minuteCount - granted + i + 1, dayCount: dayCount - granted + i + 1 }
            : { allowed: false, minuteCount, dayCount },
        );
    }
  }
}
