/** Thrown when a bounded wait runs out: callers that degrade on a slow dependency catch exactly this. */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * The one way to bound a wait on something we do not control (a database, Redis, a queue, an upstream): the
 * promise's outcome, or TimeoutError after `ms`. The timer is cleared either way, so a settled wait keeps
 * no timer alive (and never holds the process open).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
