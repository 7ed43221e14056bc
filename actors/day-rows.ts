/**
 * The day-rows of one batch: every row's date range expanded into one entry per (target, day), where the
 * target is what a calendar row belongs to (a room type, or a rate plan x room type pair). A later row of
 * the batch covering the same day merges over the earlier one, so the batch itself is last-write-wins.
 */
export class DayRows<T, V> {
  readonly #targets = new Map<string, { target: T; days: Map<number, V> }>();
  #size = 0;

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
      if (earlier === undefined) {
        days.set(day, value);
        this.#size++;
      } else {
        days.set(day, this.merge(earlier, value));
      }
    }
  }

  /** Distinct (target, day) entries. */
  get size(): number {
    return this.#size;
  }

  /** Splits the entries into those inside [from, to] and the number outside it. */
  within(from: number, to: number): { inside: DayRow<T, V>[]; outside: number } {
    const inside: DayRow<T, V>[] = [];
    let outside = 0;
    for (const { target, days } of this.#targets.values()) {
      for (const [day, value] of days) {
        if (day < from || day > to) outside++;
        else inside.push({ target, day, value });
      }
    }
    return { inside, outside };
  }
}

export interface DayRow<T, V> {
  target: T;
  day: number;
  value: V;
}
