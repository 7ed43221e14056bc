/**
 * Partner load through the balancer for the fault suite: what a well-behaved client does. Every write carries
 * an Idempotency-Key and is sent again, with the same key and body, on a 5xx, a timeout or a lost connection,
 * until it is acknowledged (2xx) or its deadline passes; 429 waits for Retry-After. Each client has its own
 * OAuth client (its own rate-limit budget) and keeps to a pace under that budget.
 */

export interface Attempt {
  at: number;
  /** HTTP status, or 0 for a timeout or a lost connection. */
  status: number;
  /** What was asked: `POST /v1/qc/bookings`. */
  route: string;
  /** Without a status: `timeout` (no answer in 5 s) or `connection lost`. */
  reason: string;
}

export interface Acked {
  key: string;
  /** Date.now() when the acknowledgement arrived. */
  at: number;
  /** Attempts it took (1: no retry). */
  attempts: number;
  body: unknown;
}

/** What every request of a run saw: failed attempts by time (the recovery measure) and refusals. */
export class LoadLog {
  readonly failures: Attempt[] = [];
  readonly refusals: { key: string; status: number; text: string }[] = [];
  requests = 0;
  retries = 0;

  /** The last failed attempt (5xx, timeout, lost connection) at or after `from`. */
  lastFailureSince(from: number): number | undefined {
    let last: number | undefined;
    for (const f of this.failures) if (f.at >= from && (last === undefined || f.at > last)) last = f.at;
    return last;
  }

  failuresBetween(from: number, to: number): number {
    return this.failures.filter((f) => f.at >= from && f.at <= to).length;
  }
}

const ATTEMPT_TIMEOUT_MS = 5000;
const GIVE_UP_AFTER_MS = 45_000;

/**
 * Sends one write until acknowledged: answers the acknowledgement, or undefined when refused (a 4xx other
 * than 409 in-flight and 429) or still not acknowledged after 45 s.
 */
export async function sendUntilAcked(
  log: LoadLog,
  url: string,
  init: { method: string; token: string; key: string; body: unknown },
): Promise<Acked | undefined> {
  const started = Date.now();
  const payload = JSON.stringify(init.body);
  for (let attempt = 1; ; attempt++) {
    // A failure is dated when the attempt was sent: the service did not answer a request made then.
    const sent = Date.now();
    log.requests++;
    if (attempt > 1) log.retries++;
    let status = 0;
    let text = '';
    let retryAfter = 0;
    let reason = '';
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: {
          authorization: `Bearer ${init.token}`,
          'content-type': 'application/json',
          'idempotency-key': init.key,
        },
        body: payload,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      status = res.status;
      text = await res.text();
      retryAfter = Number(res.headers.get('retry-after') ?? 0);
    } catch (err) {
      status = 0;
      reason = (err as Error).name === 'TimeoutError' ? 'timeout' : 'connection lost';
    }
    const at = Date.now();
    if (status >= 200 && status < 300) {
      return { key: init.key, at, attempts: attempt, body: text ? JSON.parse(text) : undefined };
    }
    const retryable = status === 0 || status >= 500 || status === 429 || status === 409;
    if (status === 0 || status >= 500) {
      log.failures.push({ at: sent, status, route: routeOf(init.method, url), reason });
    }
    if (!retryable) {
      log.refusals.push({ key: init.key, status, text: text.slice(0, 300) });
      return undefined;
    }
    if (at - started > GIVE_UP_AFTER_MS) return undefined;
    const pause = status === 429 ? Math.max(retryAfter, 1) * 1000 : Math.min(100 * 2 ** Math.min(attempt, 3), 1000);
    await Bun.sleep(pause);
  }
}

/** A GET that counts as a failure on a 5xx, a timeout or a lost connection. */
export async function read(log: LoadLog, url: string, token: string): Promise<number> {
  const sent = Date.now();
  log.requests++;
  let status = 0;
  let reason = '';
  try {
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    status = res.status;
    await res.arrayBuffer();
  } catch (err) {
    reason = (err as Error).name === 'TimeoutError' ? 'timeout' : 'connection lost';
  }
  if (status === 0 || status >= 500) log.failures.push({ at: sent, status, route: routeOf('GET', url), reason });
  return status;
}

/** The method and path, ids and query left out, for counting failures by route. */
function routeOf(method: string, url: string): string {
  const path = new URL(url).pathname.replace(/\/[0-9a-f-]{36}(?=\/|$)/g, '/{id}');
  return `${method} ${path}`;
}

/** Runs `step` every `everyMs` (a step's own time included) until `stop()`; resolves when the last step ended. */
export function paced(everyMs: number, step: () => Promise<void>): { stop(): Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = Date.now();
      await step();
      const left = everyMs - (Date.now() - started);
      if (left > 0 && !stopped) await Bun.sleep(left);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
    },
  };
}
