import { errorFields, type Log } from '../log.ts';
import type { Budget } from './budgets.ts';
import { type Counters, dayEnd, minuteEnd, windowsAt } from './counters.ts';

export interface Verdict {
  /** False only when the budget is spent and the limiter enforces. */
  allowed: boolean;
  /** The X-RateLimit-* headers. */
  headers: Record<string, string>;
  /** Retry-After (seconds) of a refusal. */
  retryAfter?: string;
}

/**
 * Spends budgets and describes them in headers. When the counters fail (Redis down or slow) the request
 * is served uncounted (fail open): the failure is logged and counted in `failures`, shown by /readyz.
 */
export class RateLimiter {
  failures = 0;

  constructor(
    private readonly counters: Counters,
    private readonly log: Log,
    /** False for test apps of other features that make more calls a minute than a partner may. */
    readonly enforce = true,
  ) {}

  async take(subject: string, bucket: string, budget: Budget, now: Date): Promise<Verdict> {
    const windows = windowsAt(now);
    const reset = minuteEnd(windows);
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(budget.perMinute),
      'x-ratelimit-remaining': String(budget.perMinute),
      'x-ratelimit-reset': String(reset),
      'x-ratelimit-bucket': bucket,
    };
    let usage: Awaited<ReturnType<Counters['take']>>;
    try {
      usage = await this.counters.take(subject, budget, windows);
    } catch (err) {
      this.failures++;
      this.log.warn('rate limit counters unavailable; request served uncounted', {
        bucket,
        failures: this.failures,
        ...errorFields(err),
        stack: undefined,
      });
      return { allowed: true, headers };
    }
    const remaining = Math.min(budget.perMinute - usage.minuteCount, budget.perDay - usage.dayCount);
    headers['x-ratelimit-remaining'] = String(Math.max(0, remaining));
    if (usage.allowed || !this.enforce) return { allowed: true, headers };

    // A spent day budget frees up at 00:00 UTC, not at the next minute: Reset and Retry-After both say so.
    const until = usage.dayCount >= budget.perDay ? dayEnd(windows) : reset;
    headers['x-ratelimit-reset'] = String(until);
    return { allowed: false, headers, retryAfter: String(Math.max(1, until - Math.floor(now.getTime() / 1000))) };
  }
}
