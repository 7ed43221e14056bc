/**
 * The day-rows of one batch: every row's date range, per target, where the target is what a calendar row belongs
 * to (a room type, or a rate plan x room type pair). A later row of the batch covering the same day merges over
 * the earlier one, so the batch itself is last-write-wins.
 *
 * The ranges are kept as sent and expanded to one entry per day only for a target whose ranges overlap. A push's
 * rows seldom do, and expanding 1000 rows into 20000 map entries and sorting them back into runs took 3 of a
 * 20000-day-row push's 63 ms (bench:inventory, docs/performance.md "Ninth session").
 */
export class DayRows<T, V> {
  readonly #targets = new Map<string, { target: T; ranges: Range<V>[] }>();

  /** `merge(earlier, later)`: the value a day keeps when two rows cover it (the later one wins per field). */
  constructor(private readonly merge: (earlier: V, later: V) => V) {}

  add(key: string, target: T, from: number, to: number, value: V): void {
    if (from > to) return;
    const entry = this.#targets.get(key);
    if (entry) entry.ranges.push({ from, to, value });
    else this.#targets.set(key, { target, ranges: [{ from, to, value }] });
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
    for (const { target, ranges } of this.#targets.values()) {
      let run: DayRun<T, V> | undefined;
      // Days ascending, each once with its merged value: a run needs its days in order.
      for (const range of this.#disjoint(ranges)) {
        const first = Math.max(range.from, from);
        const last = Math.min(range.to, to);
        const length = range.to - range.from + 1;
        if (first > last) {
          outside += length;
          continue;
        }
        outside += length - (last - first + 1);
        days += last - first + 1;
        if (run && run.to === first - 1 && run.value === range.value) run.to = last;
        else {
          run = { target, from: first, to: last, value: range.value };
          inside.push(run);
        }
      }
    }
    return { inside, days, outside };
  }

  /** One target's ranges in day order without overlaps: as sent when none overlap, else day by day merged. */
  #disjoint(ranges: Range<V>[]): Range<V>[] {
    const sorted = ranges.length > 1 ? [...ranges].sort((a, b) => a.from - b.from) : ranges;
    if (sorted.every((range, i) => i === 0 || range.from > (sorted[i - 1] as Range<V>).to)) return sorted;
    const byDay = new Map<number, V>();
    for (const range of ranges)
      for (let day = range.from; day <= range.to; day++) {
        const earlier = byDay.get(day);
        byDay.set(day, earlier === undefined ? range.value : this.merge(earlier, range.value));
      }
    return [...byDay.keys()].sort((a, b) => a - b).map((day) => ({ from: day, to: day, value: byDay.get(day) as V }));
  }
}

interface Range<V> {
  from: number;
  to: number;
  value: V;
}

/** Days `from`..`to` (inclusive day numbers) of one target, all with the same value. */
export interface DayRun<T, V> {
  target: T;
  from: number;
  to: number;
  value: V;
}
