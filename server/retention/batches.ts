/** Rows one retention statement removes at most: a backlog goes in short statements, never one long lock. */
export const RETENTION_BATCH = 1000;

/** After a full batch the pass rests this many times as long as the batch took. */
const REST_FACTOR = 9;

/**
 * Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short.
 * After each full batch it rests nine times as long as the batch took: a backlog is removed at a tenth of the
 * database's pace (still millions of rows an hour), leaving the rest to the requests. At half its pace (5000-row
 * batches, resting as long as each took) pushes beside a pass slowed by 35-100 % at the p99, and at a quarter
 * (2000, three times) by 15 % at the median and 47 % at the p99 (bench:volume measures pushes during a pass).
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
