/** Rows one retention statement removes at most: a backlog goes in short statements, never one long lock. */
export const RETENTION_BATCH = 2000;

/** After a full batch the pass rests this many times as long as the batch took. */
const REST_FACTOR = 3;

/**
 * Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short.
 * After each full batch it rests three times as long as the batch took: a backlog is removed at a quarter of the
 * database's pace, leaving the rest to the requests. At half its pace (5000-row batches, resting as long as
 * each took) pushes beside a pass slowed by 35-100 % at the p99 on the loaded two-core machine (bench:volume
 * measures pushes during a pass); an hourly pass has the time.
 */
export async function inBatches(step: (batch: number) => Promise<number>, batch = RETENTION_BATCH): Promise<number> {
  let removed = 0;
  for (;;) {
    const started = performance.now();
    const n = await step(batch);
    removed += n;
    if (n < batch) return removed;
    await Bun.sleep((performance.now() - started) * REST_FACTOR);
  }
}

/** The instant `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
