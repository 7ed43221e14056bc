/** The one clock. Production uses the system clock; tests inject a ManualClock to move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = new Date()) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime();
  }
}
