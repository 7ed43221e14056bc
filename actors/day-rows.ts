/**
 * The day-rows of one batch: every row's date range expanded into one entry per (target, day), where the
 * target is what a calendar row belongs to (a room type, or a rate plan x room type pair). A later row of
 * the batch covering the same day merges over the earlier one, so the batch itself is last-write-wins.
 */
export class DayRows<T, V> {
  readonly #targets = new Map<string, { target: T; days: Map<number, V> }>();

  /** `merge(earlier, later)`: the value a day keeps when two rows cover it (the later one wins per field). */
  constructor(private readonly merge: (earlier: V, later: V) => V) {}

  add(key: string, target: T, from: number, to: number, value: V): void {
    let entry = this.#targets.get(key);
    if (!entry) {
      entry = { target, days: new Map() };
      this.#targets.set(key, entry);
    }
    const days = entry.days;
    for (let day = from; day <= to; day++) {
      const earlier = days.get(day);
      days.set(day, earlier === undefined ? value : this.merge(earlier, value));
    }
  }

  /**
   * The entries inside [from, to] as runs (a target's consecutive days that share one value: a request row's
   * range usually stays one run), how many day entries those runs hold, and how many fell outside. Writers
   * send runs, not days: 1000 runs instead of 20000 day-rows for a typical push (actors/calendar-writes.ts).
   */
  within(from: number, to: number): { inside: DayRun<T, V>[]; days: number; outside: number } {
    const inside: DayRun<T, V>[] = [];
    let days = 0;
    let outside = 0;
    for (const { target, days: byDay } of this.#targets.values()) {
      // Rows of one target arrive in any order; a run needs its days ascending.
      const sorted = [...byDay.keys()].sort((a, b) => a - b);
      let run: DayRun<T, V> | undefined;
      for (const day of sorted) {
        if (day < from || day > to) {
          outside++;
          continue;
        }
        days++;
        const value = byDay.get(day) as V;
        if (run && run.to === day - 1 && run.value === value) run.to = day;
        else {
          run = { target, from: day, to: day, value };
          inside.push(run);
        }
      }
    }
    return { inside, days, outside };
  }
}

/** Days `from`..`to` (inclusive day numbers) of one target, all with the same value. */
export interface DayRun<T, V> {
  target: T;
  from: number;
  to: number;
  value: V;
}
