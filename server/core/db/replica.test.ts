import { describe, expect, it } from 'bun:test';
import { createLog } from '../log.ts';
import type { Db } from './db.ts';
import { ReplicaReads } from './replica.ts';

/** A Db that answers every `sql` with `rows` after `delayMs`; nothing else is used by the lag sampling. */
function answering(rows: () => Record<string, unknown>[], delayMs = 0): Db {
  const unused = () => {
    throw new Error('not used by the lag sampling');
  };
  return {
    kind: 'postgres',
    sql: (async () => {
      await Bun.sleep(delayMs);
      return rows();
    }) as Db['sql'],
    query: unused,
    affected: unused,
    tx: unused,
    savepoint: unused,
    listen: unused,
    notify: unused,
    close: async () => {},
    closed: () => false,
  };
}

describe('ReplicaReads tick', () => {
  it('dates a WAL sample from before the primary was asked, so a slow answer counts as lag', async () => {
    const primaryDelayMs = 300;
    const primary = answering(() => [{ lsn: '0/10' }], primaryDelayMs);
    const replica = answering(() => [{ lsn: '0/10' }]);
    const asked = Date.now();
    const reads = new ReplicaReads(primary, replica, 5000, createLog('silent'), 60_000);
    try {
      await reads.tick();
      // The replica has replayed a position the primary had when it was asked, at least the primary's answer
      // time ago (timed at the answer, the lag read about 0 here).
      expect(reads.lagMs()).toBeGreaterThanOrEqual(primaryDelayMs - 50);
      expect(reads.lagMs()).toBeLessThanOrEqual(Date.now() - asked);
    } finally {
      await reads.close();
    }
  });
});
