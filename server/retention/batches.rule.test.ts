import { describe, expect, it } from 'bun:test';
import { inBatches, RETENTION_BATCH, walkFront } from './batches.ts';

/** A step that works `ms` and removes a full batch, aborting `stopping` after its first call. */
function fullBatches(stopping: AbortController, ms: number) {
  let calls = 0;
  return {
    calls: () => calls,
    step: async () => {
      calls++;
      await Bun.sleep(ms);
      if (calls === 1) setTimeout(() => stopping.abort(), 10);
      return RETENTION_BATCH;
    },
  };
}

describe('retention batches, stopped', () => {
  // A 200 ms batch rests 3.8 s after it: a pass stopped meanwhile ends in the rest, not after it.
  it('inBatches ends in the rest after the batch under way when its signal aborts', async () => {
    const stopping = new AbortController();
    const work = fullBatches(stopping, 200);
    const started = performance.now();
    expect(await inBatches(work.step, stopping.signal)).toBe(RETENTION_BATCH);
    expect(work.calls()).toBe(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('walkFront ends in the rest after the slice under way when its signal aborts', async () => {
    const stopping = new AbortController();
    const work = fullBatches(stopping, 200);
    const started = performance.now();
    const removed = await walkFront(async (after) => {
      const n = await work.step();
      return { removed: n, last: after + n, done: false };
    }, stopping.signal);
    expect(removed).toBe(RETENTION_BATCH);
    expect(work.calls()).toBe(1);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
