/** Rows one retention statement removes at most: a backlog goes in short statements, never one long lock. */
export const RETENTION_BATCH = 5000;

/** Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short. */
export async function inBatches(step: (batch: number) => Promise<number>, batch = RETENTION_BATCH): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await step(batch);
    removed += n;
    if (n < batch) return removed;
  }
}

/** The instant `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
