/** Rows one retention statement removes at most: a backlog goes in short statements, never one long lock. */
export const RETENTION_BATCH = 5000;

/**
 * Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short.
 * After each full batch it rests as long as the batch took: a backlog is removed at half the database's pace,
 * leaving the other half to the requests (bench:volume measures pushes during a pass).
 */
export async function inBatches(step: (batch: number) => Promise<number>, batch = RETENTION_BATCH): Promise<number> {
  let removed = 0;
  for (;;) {
    const started = performance.now();
    const n = await step(batch);
    removed += n;
    if (n < batch) return removed;
    await Bun.sleep(performance.now() - started);
  }
}

/** The instant `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
