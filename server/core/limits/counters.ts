import type { Budget } from './budgets.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The wall-clock minute and UTC day a moment falls in, as indices since the epoch. */
export interface Windows {
  minute: number;
  day: number;
}

export function windowsAt(now: Date): Windows {
  const ms = now.getTime();
  return { minute: Math.floor(ms / MINUTE_MS), day: Math.floor(ms / DAY_MS) };
}

/** Unix seconds at which the window after `windows.minute` (or `.day`) starts. */
export function minuteEnd(windows: Windows): number {
  return ((windows.minute + 1) * MINUTE_MS) / 1000;
}
export function dayEnd(windows: Windows): number {
  return ((windows.day + 1) * DAY_MS) / 1000;
}

/** Counts after a request: `allowed` false means it was refused and not counted. */
export interface Usage {
  allowed: boolean;
  minuteCount: number;
  dayCount: number;
}

/**
 * Where request counts live. `take` counts one request against both windows when both have room, as
 * one atomic step, so concurrent callers (threads of one process, or processes sharing Redis) never
 * overspend a budget between a check and an increment.
 */
export interface Counters {
  take(subject: string, budget: Budget, windows: Windows): Promise<Usage>;
}

/** The embedded default: counters in this process's memory, dropped when their window has passed. */
export class MemoryCounters implements Counters {
  readonly #counts = new Map<string, { count: number; until: number }>();
  #takes = 0;

  async take(subject: string, budget: Budget, windows: Windows): Promise<Usage> {
    const minuteKey = `${subject}:m:${windows.minute}`;
    const dayKey = `${subject}:d:${windows.day}`;
    const minuteCount = this.#counts.get(minuteKey)?.count ?? 0;
    const dayCount = this.#counts.get(dayKey)?.count ?? 0;
    if (minuteCount >= budget.perMinute || dayCount >= budget.perDay) return { allowed: false, minuteCount, dayCount };
    this.#counts.set(minuteKey, { count: minuteCount + 1, until: windows.minute + 1 });
    this.#counts.set(dayKey, { count: dayCount + 1, until: (windows.day + 1) * 1440 });
    if (++this.#takes % 1000 === 0) this.#sweep(windows.minute);
    return { allowed: true, minuteCount: minuteCount + 1, dayCount: dayCount + 1 };
  }

  /** `until` is the minute index at which an entry stops mattering. */
  #sweep(currentMinute: number): void {
    for (const [key, entry] of this.#counts) if (entry.until <= currentMinute) this.#counts.delete(key);
  }
}
