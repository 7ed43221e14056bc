/** The one clock. Production uses the system clock; tests inject a ManualClock to move time. */
export interface Clock {
  now(): Date;
  /** A signal that aborts once `ms` have passed on this clock: the deadline of a call that may hang. */
  deadline(ms: number): AbortSignal;
}

export const systemClock: Clock = { now: () => new Date(), deadline: (ms) => AbortSignal.timeout(ms) };

export class ManualClock implements Clock {
  #ms: number;
  readonly #deadlines = new Set<{ at: number; controller: AbortController }>();
  constructor(start: Date | string = new Date()) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  /** Aborts when the clock is moved to or past `now + ms`, never on its own. */
  deadline(ms: number): AbortSignal {
    const controller = new AbortController();
    this.#deadlines.add({ at: this.#ms + ms, controller });
    this.#expire();
    return controller.signal;
  }
  advance(ms: number): void {
    this.#ms += ms;
    this.#expire();
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
    this.#expire();
  }
  #expire(): void {
    for (const deadline of this.#deadlines) {
      if (deadline.at > this.#ms) continue;
      this.#deadlines.delete(deadline);
      deadline.controller.abort(new DOMException('The deadline passed', 'TimeoutError'));
    }
  }
}
