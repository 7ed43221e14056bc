import { describe, expect, it } from 'bun:test';
import { createLog } from '../log.ts';
import { MemoryCounters } from './counters.ts';
import { RateLimiter } from './rate-limiter.ts';

/**
 * A read runs beside its budget unless this process saw its caller refused in a window still running
 * (server/core/http/admission.ts): then it waits, so a caller over budget costs no query per request.
 */
describe('RateLimiter.refusedLately', () => {
  const budget = { perMinute: 2, perDay: 3 };

  it('is true from a refusal until the window that refused ends, for that subject only', async () => {
    const limiter = new RateLimiter(new MemoryCounters(), createLog('silent'));
    const at = (iso: string) => new Date(iso);
    for (let i = 0; i < 2; i++) await limiter.take('reads:owner:1', 'reads', budget, at('2030-01-01T00:00:10Z'));
    expect(limiter.refusedLately('reads:owner:1', at('2030-01-01T00:00:10Z'))).toBe(false);
    expect((await limiter.take('reads:owner:1', 'reads', budget, at('2030-01-01T00:00:11Z'))).allowed).toBe(false);
    expect(limiter.refusedLately('reads:owner:1', at('2030-01-01T00:00:59.999Z'))).toBe(true);
    expect(limiter.refusedLately('reads:owner:2', at('2030-01-01T00:00:12Z'))).toBe(false);
    expect(limiter.refusedLately('reads:owner:1', at('2030-01-01T00:01:00Z'))).toBe(false);
  });

  it('lasts until 00:00 UTC when the day budget refused', async () => {
    const limiter = new RateLimiter(new MemoryCounters(), createLog('silent'));
    await limiter.take('reads:owner:1', 'reads', budget, new Date('2030-01-01T00:00:10Z'));
    await limiter.take('reads:owner:1', 'reads', budget, new Date('2030-01-01T00:00:11Z'));
    await limiter.take('reads:owner:1', 'reads', budget, new Date('2030-01-01T00:01:10Z'));
    expect((await limiter.take('reads:owner:1', 'reads', budget, new Date('2030-01-01T00:02:10Z'))).allowed).toBe(
      false,
    );
    expect(limiter.refusedLately('reads:owner:1', new Date('2030-01-01T23:59:59Z'))).toBe(true);
    expect(limiter.refusedLately('reads:owner:1', new Date('2030-01-02T00:00:00Z'))).toBe(false);
  });

  it('is never true when the limiter counts without refusing', async () => {
    const limiter = new RateLimiter(new MemoryCounters(), createLog('silent'), false);
    for (let i = 0; i < 3; i++) await limiter.take('reads:owner:1', 'reads', budget, new Date('2030-01-01T00:00:10Z'));
    expect(limiter.refusedLately('reads:owner:1', new Date('2030-01-01T00:00:12Z'))).toBe(false);
  });
});
