/**
 * Rows one retention statement removes at most: a backlog goes in short statements, never one long lock. 250
 * rather than 1000: the same pace in slices a quarter as long, so a push meets several short ones rather than
 * sometimes one long one. Beside a storm of pushes, 1000-row batches (40 ms each) slowed the pushes' median by
 * 3-8 % and their p99 by up to 11 %; 250-row batches by nothing measurable (bench:volume, docs/performance.md).
 */
export const RETENTION_BATCH = 250;

/**
 * After a full batch the pass rests this many times as long as the batch took: it works a twentieth of the time.
 * At a tenth (9), beside a storm of pushes on the large bench database, the pushes were 6-11 % slower at the median
 * in every block of a run (bench:volume, docs/performance.md): the two cores were already the pushes'.
 */
const REST_FACTOR = 19;

/**
 * Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short.
 * After each full batch it rests REST_FACTOR times as long as the batch took: a backlog is removed at a twentieth
 * of the database's pace (still millions of rows an hour), leaving the rest to the requests. At half its pace (5000-row
 * batches, resting as long as each took) pushes beside a pass slowed by 35-100 % at the p99, and at a quarter
 * (2000, three times) by 15 % at the median and 47 % at the p99 (bench:volume measures pushes during a pass);
 * see RETENTION_BATCH for the batch's size.
 */
export async function inBatches(step: (batch: number) => Promise<number>, batch = RETENTION_BATCH): Promise<number> {
  let removed = 0;
  for (;;) {
    const started = performance.now();
    const n = await step(batch);
    removed += n;
    if (n < batch) return removed;
    await restAfter(started);
  }
}

/** Rests REST_FACTOR times as long as the work begun at `started` (a `performance.now()`) took. */
export function restAfter(started: number): Promise<void> {
  return Bun.sleep((performance.now() - started) * REST_FACTOR);
}

/** The instant `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
