import type { Db } from '../core/db/db.ts';
import { type DueRow, oldestDue, SWEEP_LIMIT, sharedDue } from './due-deliveries.ts';

/**
 * While more deliveries are due than a pass takes, the sweep shares a pass at most this often. The shared
 * statement costs 10-20 ms where the oldest-first one costs 1-4 (docs/performance.md, "Nineteenth session"), and
 * every 200 ms poll ran it; the passes between take nothing: the shared pass's deliveries are in the scheduler, and
 * a delivery found due meanwhile waits at most this long more.
 */
export const SHARE_EVERY_MS = 1000;

export interface DueSweepOptions {
  /** Due deliveries a pass takes at most; SWEEP_LIMIT in production, smaller in tests of the rotation. */
  limit?: number;
  /** Wall-clock milliseconds, for the pace of shared passes (the database's `now` is the caller's). */
  wallNow?: () => number;
}

/**
 * One process's sweep of due deliveries: all of them while they fit in a pass, shared between subscriptions (and
 * in turn between them beyond `limit` subscriptions) while more are due, then at most every SHARE_EVERY_MS.
 */
export class DueSweep {
  private readonly limit: number;
  private readonly wallNow: () => number;
  // The subscription the last shared pass served last: the next one begins after it.
  private after = 0;
  // When the last shared pass ran; none since the due deliveries last fitted in a pass.
  private sharedAt: number | undefined;

  constructor(
    private readonly db: Db,
    { limit = SWEEP_LIMIT, wallNow = Date.now }: DueSweepOptions = {},
  ) {
    this.limit = limit;
    this.wallNow = wallNow;
  }

  /** The due deliveries this pass hands to the scheduler (none, between shared passes). */
  async pass(now: Date): Promise<DueRow[]> {
    if (this.sharedAt !== undefined && this.wallNow() - this.sharedAt < SHARE_EVERY_MS) return [];
    const oldest = await oldestDue(this.db, now, this.limit);
    if (oldest.length <= this.limit) {
      this.sharedAt = undefined;
      return oldest;
    }
    const { rows, turnEnd } = await sharedDue(this.db, now, this.limit, this.after);
    this.sharedAt = this.wallNow();
    this.after = turnEnd;
    return rows;
  }
}
