import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Db } from './db.ts';
import { openPostgres } from './postgres.ts';

/**
 * Db.notify sends on a connection of its own, never on one of the pool's: the principal cache's heartbeat on the
 * pool's connections made a large answer on the same connection late by 15-50 ms once in about a hundred.
 * Pinned with a pool of one connection held busy: the notification still goes out, and is delivered, at once.
 */
describe.skipIf(!process.env.DATABASE_URL)('notify', () => {
  let db: Db;

  beforeAll(() => {
    db = openPostgres(process.env.DATABASE_URL as string, {
      max: 1,
      timeoutMs: 5000,
      sessionUrl: process.env.DATABASE_SESSION_URL,
    });
  });
  afterAll(async () => {
    await db.close();
  });

  it('is delivered while every connection of the pool is busy', async () => {
    const channel = `qc_notify_test_${process.pid}`;
    const heard: string[] = [];
    let delivered: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      delivered = resolve;
    });
    await db.listen(channel, (payload) => {
      if (payload === undefined) return;
      heard.push(payload);
      delivered();
    });
    // The pool's one connection, busy for two seconds.
    const busy = db.query('select pg_sleep(2)');
    const sentAt = performance.now();
    await db.notify(channel, 'beat-1');
    await arrived;
    const tookMs = performance.now() - sentAt;
    await busy;
    expect(heard).toEqual(['beat-1']);
    // Through the pool it would have waited for the sleep to end.
    expect(tookMs).toBeLessThan(1500);
  });
});
