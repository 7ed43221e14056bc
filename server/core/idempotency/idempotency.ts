import { ApiError } from '../http/api-error.ts';
import { errorFields, type Log } from '../log.ts';
import { type Claim, type Held, type IdempotencyStore, LEASE_MS, type StoredResponse } from './store.ts';

/** Spec 8.2: a key is kept 24 hours from the original response. */
export const KEEP_MS = 24 * 3600_000;
/** Spec 8.2: how long a request waits for a running request with the same key. */
export const WAIT_MS = 30_000;

/** A step of a wait (Idempotency.#waitingOut): the key's first request is still running. */
const RUNNING = Symbol('running');

export type Start = Exclude<Claim, { kind: 'conflict' | 'in_flight' }> | { kind: 'unguarded' };

/**
 * Idempotency as a pair (trigger.dev): `start` before the work, `finish` after it. The store is a cache
 * in front of the write, never a reason for a write to fail: when it is unreachable the request runs
 * without deduplication (`unguarded`), and the outage is logged and counted in `failures` (/readyz).
 */
export class Idempotency {
  failures = 0;

  readonly #renewals = new Map<string, ReturnType<typeof setInterval>>();

  constructor(
    private readonly store: IdempotencyStore,
    private readonly log: Log,
    readonly waitMs = WAIT_MS,
    /** How long a claim holds unless renewed; the owner renews it every third of that while it runs. */
    readonly leaseMs = LEASE_MS,
  ) {}

  /** Claims `key` for this body: started, a replay, or throws 409 (conflict, or still running after the wait). */
  start(key: string, fingerprint: string, now: () => Date): Promise<Start> {
    return this.#waitingOut(async () => {
      let claim: Claim;
      try {
        claim = await this.store.claim(key, fingerprint, now().getTime(), this.leaseMs);
      } catch (err) {
        this.#outage('claim', err);
        return { kind: 'unguarded' };
      }
      if (claim.kind === 'conflict') throw new ApiError('errors.qc.idempotency_conflict');
      if (claim.kind === 'started') this.#keepRenewing(key, claim.lease);
      return claim.kind === 'in_flight' ? RUNNING : claim;
    });
  }

  /**
   * The response kept under `key` for this body, claiming nothing: for a request refused before its claim that
   * must still replay what its key answered (qc-plugin.ts, a DELETE whose record it deleted). Waits out a running
   * claim as `start` does (409 in flight after the wait). `fingerprint` is asked only when the key holds something,
   * and once. Undefined when the key holds nothing, holds another body, or the store is unreachable.
   */
  kept(key: string, fingerprint: () => Promise<string>, now: () => Date): Promise<StoredResponse | undefined> {
    let body: Promise<string> | undefined;
    return this.#waitingOut(async () => {
      let held: Held | undefined;
      try {
        held = await this.store.peek(key, now().getTime());
      } catch (err) {
        this.#outage('peek', err);
        return undefined;
      }
      body ??= held && fingerprint();
      if (!held || held.fingerprint !== (await body)) return undefined;
      return held.response ?? RUNNING;
    });
  }

  /** Asks `step` until it no longer answers RUNNING, backing off from 10 to 250 ms, for at most waitMs (then 409). */
  async #waitingOut<T>(step: () => Promise<T | typeof RUNNING>): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 250)) {
      const outcome = await step();
      if (outcome !== RUNNING) return outcome;
      const left = deadline - Date.now();
      if (left <= 0) throw new ApiError('errors.qc.idempotency_in_flight');
      await Bun.sleep(Math.min(pause, left));
    }
  }

  /** Keeps the response for replay, or (`undefined`) gives the key back for a fresh retry. Never throws. */
  async finish(key: string, lease: string, response: StoredResponse | undefined): Promise<void> {
    clearInterval(this.#renewals.get(lease));
    this.#renewals.delete(lease);
    try {
      // From the original response: a replay kept under a key the store had lost does not extend the 24 hours.
      if (response) await this.store.complete(key, lease, response, Date.parse(response.at) + KEEP_MS);
      else await this.store.release(key, lease);
    } catch (err) {
      this.#outage(response ? 'complete' : 'release', err);
    }
  }

  /** While the owner runs, its claim stays; if the process dies, renewals stop and the key frees in leaseMs. */
  #keepRenewing(key: string, lease: string): void {
    const timer = setInterval(() => {
      this.store.renew(key, lease, this.leaseMs).catch((err) => this.#outage('renew', err));
    }, this.leaseMs / 3);
    timer.unref();
    this.#renewals.set(lease, timer);
  }

  #outage(step: string, err: unknown): void {
    this.failures++;
    this.log.warn('idempotency store unavailable; request not deduplicated', {
      step,
      failures: this.failures,
      ...errorFields(err),
      stack: undefined,
    });
  }
}
