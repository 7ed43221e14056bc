import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../../testing/harness.ts';
import { Idempotency } from './idempotency.ts';
import { RedisIdempotencyStore } from './redis-store.ts';
import { type IdempotencyStore, MemoryIdempotencyStore } from './store.ts';

/**
 * Issue 16 defect 9: after a crash, a retry with the same Idempotency-Key answered 409 in flight for up to
 * 5 minutes (the claim's fixed lease). The claim is now a short lease its owner renews while it runs: a live
 * owner keeps the key, a dead one (no renewals) frees it within the lease. A 300 ms lease stands in for 5 s.
 */
const LEASE_MS = 300;

describe.each([
  ['Redis', true],
  ['in-process', false],
])('the Idempotency-Key claim lease (%s)', (_name, useRedis) => {
  let store: IdempotencyStore;
  const t = testAppPerFile();
  beforeAll(async () => {
    store =
      useRedis && t.deps.redis
        ? new RedisIdempotencyStore(t.deps.redis, `qc-test:${crypto.randomUUID()}:`)
        : new MemoryIdempotencyStore();
  });

  const now = () => new Date();
  const retrying = () => new Idempotency(store, t.deps.log, 50, LEASE_MS);

  it('frees the key of an owner that died (no renewals) within the lease', async () => {
    const key = `crashed-${crypto.randomUUID()}`;
    // The owner claims and then its process dies: nothing renews the claim.
    expect((await store.claim(key, 'fp', Date.now(), LEASE_MS)).kind).toBe('started');
    await expect(retrying().start(key, 'fp', now)).rejects.toMatchObject({ key: 'errors.qc.idempotency_in_flight' });
    await Bun.sleep(LEASE_MS * 2);
    expect((await retrying().start(key, 'fp', now)).kind).toBe('started');
  });

  it('keeps the key of an owner that is still running, past its first lease', async () => {
    const key = `running-${crypto.randomUUID()}`;
    const owner = new Idempotency(store, t.deps.log, 50, LEASE_MS);
    const claim = await owner.start(key, 'fp', now);
    expect(claim.kind).toBe('started');
    await Bun.sleep(LEASE_MS * 3);
    await expect(retrying().start(key, 'fp', now)).rejects.toMatchObject({ key: 'errors.qc.idempotency_in_flight' });
    if (claim.kind === 'started') await owner.finish(key, claim.lease, undefined);
    expect((await retrying().start(key, 'fp', now)).kind).toBe('started');
  });
});
