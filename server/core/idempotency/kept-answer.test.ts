import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { Idempotency } from './idempotency.ts';
import { RedisIdempotencyStore } from './redis-store.ts';
import { type IdempotencyStore, MemoryIdempotencyStore, type StoredResponse } from './store.ts';

/**
 * A keyed write refused for its path's record (404) first replays what its key answered (qc-plugin.ts): a DELETE
 * that went through leaves no record to find. The look-up claims nothing (Idempotency.kept over the store's peek),
 * and runs only for a keyed write whose record is refused: a found record, a read and a write without a key ask
 * the store nothing more than before.
 */
const ANSWER: StoredResponse = { status: 200, headers: {}, body: '{"status":"ok"}', at: '2030-05-01T08:00:00.000Z' };
const now = () => new Date();

describe.each([
  ['Redis', true],
  ['in-process', false],
])('the answer kept under a key, read without claiming it (%s)', (_name, useRedis) => {
  let store: IdempotencyStore;
  const t = testAppPerFile();
  beforeAll(() => {
    store =
      useRedis && t.deps.redis
        ? new RedisIdempotencyStore(t.deps.redis, `qc-test:${crypto.randomUUID()}:`)
        : new MemoryIdempotencyStore();
  });
  const idempotency = () => new Idempotency(store, t.deps.log, 300, 1_000);
  const fingerprint = (value: string) => async () => value;

  it('answers the kept response for the same body, nothing for another body or a key never used', async () => {
    const key = `kept-${crypto.randomUUID()}`;
    const claim = await store.claim(key, 'fp', Date.now(), 1_000);
    if (claim.kind !== 'started') throw new Error(`expected a claim, got ${claim.kind}`);
    await store.complete(key, claim.lease, ANSWER, Date.now() + 60_000);
    expect(await idempotency().kept(key, fingerprint('fp'), now)).toEqual(ANSWER);
    expect(await idempotency().kept(key, fingerprint('other'), now)).toBeUndefined();
    expect(await idempotency().kept(`never-${crypto.randomUUID()}`, fingerprint('fp'), now)).toBeUndefined();
    // Nothing was claimed by looking: the key still replays for its body.
    expect(await store.claim(key, 'fp', Date.now(), 1_000)).toEqual({ kind: 'replay', response: ANSWER });
  });

  it('claims nothing for a key it finds empty, and reads the body only when the key holds something', async () => {
    const key = `empty-${crypto.randomUUID()}`;
    let reads = 0;
    const counted = async () => {
      reads++;
      return 'fp';
    };
    expect(await idempotency().kept(key, counted, now)).toBeUndefined();
    expect(reads).toBe(0);
    expect((await store.claim(key, 'fp', Date.now(), 1_000)).kind).toBe('started');
  });

  it('treats an answer past its 24 hours as nothing', async () => {
    const key = `expired-${crypto.randomUUID()}`;
    const claim = await store.claim(key, 'fp', Date.now(), 1_000);
    if (claim.kind !== 'started') throw new Error(`expected a claim, got ${claim.kind}`);
    await store.complete(key, claim.lease, ANSWER, Date.now() - 1);
    expect(await idempotency().kept(key, fingerprint('fp'), now)).toBeUndefined();
  });

  it('waits for the running first request and answers what it kept, reading the body once', async () => {
    const key = `running-${crypto.randomUUID()}`;
    const claim = await store.claim(key, 'fp', Date.now(), 1_000);
    if (claim.kind !== 'started') throw new Error(`expected a claim, got ${claim.kind}`);
    let reads = 0;
    const waiting = idempotency().kept(
      key,
      async () => {
        reads++;
        return 'fp';
      },
      now,
    );
    await Bun.sleep(60);
    await store.complete(key, claim.lease, ANSWER, Date.now() + 60_000);
    expect(await waiting).toEqual(ANSWER);
    expect(reads).toBe(1);
  });

  it('answers 409 in flight when the first request still runs after the wait', async () => {
    const key = `stuck-${crypto.randomUUID()}`;
    expect((await store.claim(key, 'fp', Date.now(), 1_000)).kind).toBe('started');
    await expect(idempotency().kept(key, fingerprint('fp'), now)).rejects.toMatchObject({
      key: 'errors.qc.idempotency_in_flight',
    });
  });
});

describe('the pipeline looks for a kept answer only for a keyed write whose path record is refused', () => {
  const t = testAppPerFile();
  const demo = perFile(() => t.demo());
  let peeks = 0;
  beforeAll(() => {
    const store = new MemoryIdempotencyStore();
    const counting: IdempotencyStore = {
      claim: (key, fingerprint, nowMs, leaseMs) => store.claim(key, fingerprint, nowMs, leaseMs),
      peek: (key, nowMs) => {
        peeks++;
        return store.peek(key, nowMs);
      },
      renew: (key, lease, leaseMs) => store.renew(key, lease, leaseMs),
      complete: (key, lease, response, expiresAtMs) => store.complete(key, lease, response, expiresAtMs),
      release: (key, lease) => store.release(key, lease),
    };
    t.deps.idempotency = new Idempotency(counting, t.deps.log);
  });

  it('asks the store nothing more for a found record, a read or a write without a key', async () => {
    const base = `/v1/qc/properties/${demo.properties[0]?.id}/promotions`;
    const unknown = `${base}/00000000-0000-4000-8000-000000000000`;
    const key = () => ({ 'idempotency-key': `cost-${crypto.randomUUID()}` });
    const as = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      t.request(method, path, { token: demo.personal_token, headers, body });
    const statuses = [
      (await as('DELETE', unknown)).status,
      (await as('GET', unknown, key())).status,
      (await as('PATCH', `${base}/${demo.configuration.promotion_id}`, key(), { name: 'Found' })).status,
    ];
    expect({ statuses, peeks }).toEqual({ statuses: [404, 404, 200], peeks: 0 });
    expect((await as('DELETE', unknown, key())).status).toBe(404);
    expect(peeks).toBe(1);
  });
});
