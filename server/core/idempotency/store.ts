/** A response kept for replay: what the client saw, minus the headers that describe one request only. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ISO 8601 time of the original response; the 24 hours run from here. */
  at: string;
}

/** What a key holds, read without claiming it: the fingerprint of its body, and its response once kept. */
export interface Held {
  fingerprint: string;
  response?: StoredResponse;
}

export type Claim =
  | { kind: 'started'; lease: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'in_flight' };

/**
 * Where idempotency records live. `claim` is one atomic step: it starts the operation (taking a lease),
 * or answers with the stored response, a conflict (another body under this key) or "still running".
 * The owner renews its lease while it runs; a lease left by a crashed process lapses after LEASE_MS, so a
 * retry after a crash runs within seconds instead of answering 409 in flight for minutes.
 */
export interface IdempotencyStore {
  /** `leaseMs`: how long the claim holds without a renewal (a crashed owner's key frees after it). */
  claim(key: string, fingerprint: string, nowMs: number, leaseMs: number): Promise<Claim>;
  /**
   * What the key holds now, claiming nothing: a running claim (no response yet), a kept response, or undefined
   * (never claimed, given back, a lapsed lease, an expired response).
   */
  peek(key: string, nowMs: number): Promise<Held | undefined>;
  /** Extends a running claim whose lease is still ours by `leaseMs` from now (real time). */
  renew(key: string, lease: string, leaseMs: number): Promise<void>;
  /** Stores the response under the key if the lease is still ours; kept until `expiresAtMs` (service clock). */
  complete(key: string, lease: string, response: StoredResponse, expiresAtMs: number): Promise<void>;
  /** Drops a running claim whose response must not be kept, so a retry runs afresh. */
  release(key: string, lease: string): Promise<void>;
}

/**
 * How long a claim holds without its owner renewing it (real time); the owner renews every third of it. A retry
 * of a request whose process died waits for this (answering 409 in flight after WAIT_MS), so it is kept under
 * the 5 s a client typically waits for an answer: at 15 s a retry after a kill -9 timed out twice at the client
 * before the key freed (the fault suite's kill -9 row, 5.6 s). It stays above a Redis Cluster failover (about
 * 2 to 3 s), during which renewals fail.
 */
export const LEASE_MS = 5_000;

type Entry =
  | { state: 'running'; fingerprint: string; lease: string; leaseUntil: number }
  | { state: 'done'; fingerprint: string; lease: string; response: StoredResponse; expiresAtMs: number };

/** The embedded default: records in this process's memory (not shared between processes). */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();

  async claim(key: string, fingerprint: string, nowMs: number, leaseMs: number): Promise<Claim> {
    const entry = this.#live(key, nowMs);
    if (!entry) {
      if (this.#entries.size > 10_000) this.#sweep(nowMs);
      const lease = crypto.randomUUID();
      this.#entries.set(key, { state: 'running', fingerprint, lease, leaseUntil: Date.now() + leaseMs });
      return { kind: 'started', lease };
    }
    if (entry.fingerprint !== fingerprint) return { kind: 'conflict' };
    if (entry.state === 'running') return { kind: 'in_flight' };
    return { kind: 'replay', response: entry.response };
  }

  async peek(key: string, nowMs: number): Promise<Held | undefined> {
    const entry = this.#live(key, nowMs);
    if (!entry) return undefined;
    const { fingerprint } = entry;
    return entry.state === 'done' ? { fingerprint, response: entry.response } : { fingerprint };
  }

  async complete(key: string, lease: string, response: StoredResponse, expiresAtMs: number): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.lease !== lease) return;
    this.#entries.set(key, { state: 'done', fingerprint: entry.fingerprint, lease, response, expiresAtMs });
  }

  async renew(key: string, lease: string, leaseMs: number): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state === 'running' && entry.lease === lease) entry.leaseUntil = Date.now() + leaseMs;
  }

  async release(key: string, lease: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state === 'running' && entry.lease === lease) this.#entries.delete(key);
  }

  /** The key's entry while it counts: a running claim within its lease, a response within its 24 hours. */
  #live(key: string, nowMs: number): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    return (entry.state === 'running' ? entry.leaseUntil > Date.now() : entry.expiresAtMs > nowMs) ? entry : undefined;
  }

  #sweep(nowMs: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.state === 'done' ? entry.expiresAtMs <= nowMs : entry.leaseUntil <= Date.now())
        this.#entries.delete(key);
    }
  }
}
