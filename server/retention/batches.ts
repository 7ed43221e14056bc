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
 * Runs `step` (one short statement or transaction answering how many rows it removed) until a batch is short or
 * `signal` aborts.
 * After each full batch it rests REST_FACTOR times as long as the batch took: a backlog is removed at a twentieth
 * of the database's pace (still millions of rows an hour), leaving the rest to the requests. At half its pace (5000-row
 * batches, resting as long as each took) pushes beside a pass slowed by 35-100 % at the p99, and at a quarter
 * (2000, three times) by 15 % at the median and 47 % at the p99 (bench:volume measures pushes during a pass);
 * see RETENTION_BATCH for the batch's size.
 */
export function inBatches(
  step: (batch: number) => Promise<number>,
  signal?: AbortSignal,
  batch = RETENTION_BATCH,
): Promise<number> {
  return paced(async () => {
    const removed = await step(batch);
    return { removed, over: removed < batch };
  }, signal);
}

/** What one slice of a front walk did: rows removed, the last id it read, and whether the walk is over. */
export interface Slice {
  removed: number;
  last: number | null;
  done: boolean;
}

/**
 * Walks a table from the front of its primary key, oldest first (its ids grow with time): `step(after, batch)`
 * reads the `batch` rows after id `after` in id order, removes those past their time, and says the walk is over
 * when it read fewer than `batch` rows or one made at or after the cut-off (the rest are younger). Rests after
 * each slice as inBatches does.
 *
 * Why not "the first `batch` rows past their time, in id order": its plan depends on the cut-off. A cut-off
 * below the statistics' oldest value estimates one row, and PostgreSQL then scanned the whole table and sorted
 * (outbox events: a parallel seq scan of a million rows, 218 ms a batch) where the index walk takes a
 * millisecond. Through a transaction pooler every statement is planned for its values, so every batch did; on
 * a direct connection the first five of each connection did. And the last, short batch of every pass read the
 * table to its end to find nothing more. A slice of the primary key has one plan, and a pass reads what it
 * removes and one slice more.
 */
export function walkFront(
  step: (after: number, batch: number) => Promise<Slice>,
  signal?: AbortSignal,
  batch = RETENTION_BATCH,
): Promise<number> {
  // Below any id: the tables' sequences start at 1, but rows put in by hand (bench:volume's back-dated ones) need not.
  let after = Number.MIN_SAFE_INTEGER;
  return paced(async () => {
    const slice = await step(after, batch);
    if (slice.last !== null) after = slice.last;
    return { removed: slice.removed, over: slice.done || slice.last === null };
  }, signal);
}

/**
 * The loop of inBatches and walkFront: runs `step` until it says it is over or `signal` aborts, resting after each
 * step that is not the last (restAfter). Answers the rows removed.
 */
async function paced(
  step: () => Promise<{ removed: number; over: boolean }>,
  signal: AbortSignal | undefined,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const started = performance.now();
    const done = await step();
    removed += done.removed;
    if (done.over) return removed;
    await restAfter(started, signal);
    if (signal?.aborted) return removed;
  }
}

/**
 * Rests REST_FACTOR times as long as the work begun at `started` (a `performance.now()`) took, or until `signal`
 * aborts: a process shutting down stops its pass at the next batch rather than wait out its rests (a pass over a
 * backlog rests for minutes, longer than a drain may take).
 */
export function restAfter(started: number, signal?: AbortSignal): Promise<void> {
  const ms = (performance.now() - started) * REST_FACTOR;
  if (!signal) return Bun.sleep(ms);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The instant `days` days before `now`. */
export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}
