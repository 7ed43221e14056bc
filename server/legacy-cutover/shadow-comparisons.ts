import {
  compareExchange,
  decodedAnswer,
  type Exchange,
  type ExchangeAnswer,
  endpointKey,
  generalizePath,
  type IgnoreRules,
  rulesApplied,
  verdictOf,
} from '../../harness/compare/index.ts';
import { legacyRoute } from '../../legacy/port-answer.ts';
import { utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { errorFields } from '../core/log.ts';
import { legacyShadowComparisons, legacyShadowUncompared } from '../core/metrics.ts';
import type { LegacyRequestBytes, UpstreamAnswer } from './forward-upstream.ts';
import { portDryRuns } from './port-dry-run.ts';
import { readBackOf } from './read-back.ts';
import { addComparison, addToDay, keepSample } from './shadow-days.ts';

/**
 * Fields of the read-back of a write (getAvailability after updateAvailability) are named with this prefix:
 * `after write: $.data[3].qty`.
 */
export const READ_BACK_PREFIX = 'after write: ';

function exchangeOf(request: LegacyRequestBytes, upstream: Exclude<UpstreamAnswer, { failure: string }>): Exchange {
  return {
    method: request.method,
    url: request.pathAndQuery,
    requestHeaders: request.headers,
    requestBody: request.body,
    status: upstream.status,
    responseHeaders: upstream.headers,
    responseBody: upstream.body,
  };
}

/** One shadowed request, waiting to be compared: what the PMS sent and what the legacy service answered. */
export interface ShadowExchange {
  keyId: number;
  propertyId: number;
  /** When the PMS asked (the injectable clock): the UTC day the comparison counts on. */
  at: Date;
  request: LegacyRequestBytes;
  upstream: UpstreamAnswer;
  /** Asks the key's legacy service another request (a read: the read-back of a write). */
  askUpstream?: (request: LegacyRequestBytes) => Promise<UpstreamAnswer>;
}

export interface ShadowComparisonOptions {
  /** Exchanges waiting at most; one more is dropped and counted on its key's day as `overflowed`. */
  capacity: number;
  /** Differing exchanges kept per key and day. */
  samplesPerDay: number;
  ignore?: IgnoreRules;
  /** No shadowed request offered for this long is a pause, when comparisons go on at once (default 5 ms). */
  pauseMs?: number;
  /** While shadowed requests keep arriving, the longest a comparison waits for a pause in them (default 50 ms). */
  yieldMs?: number;
  /** Once the oldest queued exchange has waited this long, new ones are dropped as past the bound (default 10 s). */
  maxLagMs?: number;
}

/**
 * Statuses the legacy service's own gateway answers when the PHP behind it is down or slow (spec 7.4: the PHP
 * service itself never sends them): the legacy service gave no answer, as when nothing listens, so the exchange
 * is `unanswered`, not held against the port. The PMS still gets them as sent.
 */
const GATEWAY_FAILURES: ReadonlySet<number> = new Set([502, 503, 504]);

const PAUSE_MS = 5;
const YIELD_MS = 50;
const MAX_LAG_MS = 10_000;

/**
 * The comparison side of shadow mode, off the request path: the facade hands each shadowed exchange to
 * `offer` after it has the legacy answer and never waits for it. A bounded queue, one worker started after the
 * current turn of the event loop (so the PMS's answer is written first): the port computes its own answer as a
 * dry run (inside the property's actor turn, every write rolled back, so nothing is written twice), the harness's
 * comparison judges it against the legacy bytes, and the outcome is added to the key's UTC day. A full queue
 * drops the exchange and counts it; offering never blocks.
 *
 * Comparisons yield to the traffic they sample. Each is a dry-run transaction and a comparison, 5-15 ms of this
 * process's thread and the database's CPU, and while PMS requests keep coming the worker has always one to do:
 * back to back, they doubled what shadow mode adds to a legacy read (0.9-1.2 ms against 0.4-0.55 with none, on the
 * shared 2-core machine: docs/performance.md). So a comparison starts in a pause of the shadowed requests (none
 * for 5 ms), or after waiting `yieldMs` for one: under continuous traffic a process compares about one exchange
 * every 50-65 ms instead of one every 13, and drops and counts the rest. The day's score is a sample either way;
 * its figures say how many were compared. The port answers as of the comparison, the legacy service as of the
 * request: so the queue is also full while its oldest exchange has waited 10 s (a booking changed meanwhile would
 * count as a difference).
 */
export class ShadowComparisons {
  readonly #queue: { exchange: ShadowExchange; offeredAt: number }[] = [];
  readonly #overflow = new Map<string, { keyId: number; day: string; count: number }>();
  #worker: Promise<void> | undefined;
  #stopped = false;
  /** When the last exchange was offered (performance.now()): the PMS traffic this process sees in shadow. */
  #offeredAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: Deps,
    private readonly options: ShadowComparisonOptions,
  ) {}

  /** Queues the exchange; false when the queue was full (counted) or the comparisons stopped. */
  offer(exchange: ShadowExchange): boolean {
    if (this.#stopped) return false;
    const now = performance.now();
    this.#offeredAt = now;
    const oldest = this.#queue[0]?.offeredAt ?? now;
    if (this.#queue.length >= this.options.capacity || now - oldest > (this.options.maxLagMs ?? MAX_LAG_MS)) {
      const day = utcDay(exchange.at);
      const slot = `${exchange.keyId} ${day}`;
      const seen = this.#overflow.get(slot) ?? { keyId: exchange.keyId, day, count: 0 };
      seen.count++;
      this.#overflow.set(slot, seen);
      legacyShadowUncompared.inc({ reason: 'overflowed' });
      return false;
    }
    this.#queue.push({ exchange, offeredAt: now });
    this.#start();
    return true;
  }

  /** Exchanges waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Resolves once every queued exchange is compared and recorded (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#worker) await this.#worker;
  }

  /** Takes no more exchanges and finishes those queued. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.idle();
  }

  #start(): void {
    if (this.#worker) return;
    this.#worker = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#drain())
      .finally(() => {
        this.#worker = undefined;
        if (this.#queue.length || this.#overflow.size) this.#start();
      });
  }

  async #drain(): Promise<void> {
    for (let next = await this.#next(); next; next = await this.#next()) {
      try {
        await this.#compare(next);
      } catch (error) {
        // A comparison that failed is lost, not the legacy traffic: the PMS already has its answer. It is counted
        // on its day as `failed` (so the score's "N of M" shows the loss), never as different: a database blip
        // must not break a zero streak.
        this.deps.log.error('shadow comparison failed', { key_id: next.keyId, ...errorFields(error) });
        await this.#recordFailed(next);
      }
      await this.#recordOverflow();
    }
    await this.#recordOverflow();
  }

  /** The next exchange to compare, once the shadowed requests pause (or `yieldMs` has passed); none when empty. */
  async #next(): Promise<ShadowExchange | undefined> {
    const until = performance.now() + (this.options.yieldMs ?? YIELD_MS);
    for (;;) {
      const now = performance.now();
      const pause = this.#offeredAt + (this.options.pauseMs ?? PAUSE_MS);
      // Stopping (shutdown) finishes the queue without waiting.
      if (this.#stopped || now >= pause || now >= until || !this.#queue.length) return this.#queue.shift()?.exchange;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, until) - now));
    }
  }

  /** Dropped exchanges counted so far go onto their keys' days (while the queue is full, after every comparison). */
  async #recordOverflow(): Promise<void> {
    if (!this.#overflow.size) return;
    const overflow = [...this.#overflow.values()];
    this.#overflow.clear();
    for (const { keyId, day, count } of overflow) {
      await addToDay(this.deps.db, { keyId, day, overflowed: count }).catch((error) =>
        this.deps.log.error('shadow overflow not recorded', { key_id: keyId, count, ...errorFields(error) }),
      );
    }
  }

  async #recordFailed(shadow: ShadowExchange): Promise<void> {
    legacyShadowUncompared.inc({ reason: 'failed' });
    await addToDay(this.deps.db, { keyId: shadow.keyId, day: utcDay(shadow.at), failed: 1 }).catch((error) =>
      this.deps.log.error('shadow failure not recorded', { key_id: shadow.keyId, ...errorFields(error) }),
    );
  }

  async #compare(shadow: ShadowExchange): Promise<void> {
    const day = utcDay(shadow.at);
    const { upstream, request } = shadow;
    if ('failure' in upstream || GATEWAY_FAILURES.has(upstream.status)) {
      legacyShadowUncompared.inc({ reason: 'unanswered' });
      await addToDay(this.deps.db, { keyId: shadow.keyId, day, unanswered: 1 });
      return;
    }
    // A successful updateAvailability is also compared on what it wrote: getAvailability over its days, read back
    // from the legacy service after its write and from the port in the dry run's turn after its own.
    const readBack =
      upstream.status === 200 &&
      shadow.askUpstream &&
      legacyRoute(new URL(request.pathAndQuery, 'http://legacy')).epMethod.toLowerCase() === 'updateavailability'
        ? readBackOf(request)
        : undefined;
    const [port, portReadBack] = (await portDryRuns(
      this.deps,
      shadow.propertyId,
      readBack ? [request, readBack] : [request],
    )) as [ExchangeAnswer, ExchangeAnswer | undefined];
    const recorded = exchangeOf(request, upstream);
    const comparison = compareExchange(recorded, port, { ignore: this.options.ignore });
    if (readBack && portReadBack && shadow.askUpstream) {
      const legacyReadBack = await shadow.askUpstream(readBack);
      if (!('failure' in legacyReadBack) && !GATEWAY_FAILURES.has(legacyReadBack.status)) {
        const written = compareExchange(exchangeOf(readBack, legacyReadBack), portReadBack, {
          ignore: this.options.ignore,
        });
        for (const field of written.fields)
          comparison.fields.push({ ...field, path: `${READ_BACK_PREFIX}${field.path}` });
        comparison.verdict = verdictOf(comparison.fields);
      }
    }
    const endpoint = endpointKey(comparison.endpoint);
    const noiseFields = comparison.fields.filter((f) => f.allowed).map((f) => `${endpoint} ${generalizePath(f.path)}`);
    const different = comparison.verdict === 'different';
    legacyShadowComparisons.inc({ verdict: different ? 'different' : 'same' });
    await addComparison(this.deps.db, {
      keyId: shadow.keyId,
      day,
      endpoint: comparison.endpoint,
      compared: 1,
      different: different ? 1 : 0,
      forgiven: comparison.verdict === 'noise_only' ? 1 : 0,
      noiseFields,
      rules: rulesApplied(comparison.fields),
    });
    if (!different || this.options.samplesPerDay === 0) return;
    const url = new URL(request.pathAndQuery, 'http://legacy');
    url.searchParams.delete('api_key');
    await keepSample(
      this.deps.db,
      {
        keyId: shadow.keyId,
        day,
        method: request.method,
        path: url.pathname,
        query: url.search,
        requestBody: request.body,
        // The bodies as compared: decoded from their Content-Encoding (the PMS got the legacy bytes as sent).
        upstream: { status: upstream.status, body: decodedAnswer(recorded).responseBody },
        port: { status: port.status, body: decodedAnswer(port).responseBody },
        fields: comparison.fields.filter((f) => !f.allowed),
        // When the PMS asked (the time of its day), not when the queue got to it: what the logs show.
        at: shadow.at,
      },
      this.options.samplesPerDay,
    );
  }
}
