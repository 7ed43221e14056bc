import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { ThrowawayPostgres } from '../../testing/throwaway-postgres.ts';
import type { Db } from '../db/db.ts';
import { openPostgres } from '../db/postgres.ts';
import { PrincipalCache } from './principal-cache.ts';

/**
 * A process that starts while its database (the LISTEN session's URL) is out of reach: the first LISTEN fails, the
 * driver keeps trying it, and once it is in place the cache caches. It used to stay off for the life of the
 * process, so every request read its principal's rows. On a PostgreSQL of its own, which this test stops.
 */
setDefaultTimeout(60_000);

describe('PrincipalCache listen', () => {
  let pg: ThrowawayPostgres;
  let db: Db;
  let cache: PrincipalCache<{ v: number }> | undefined;

  beforeAll(async () => {
    pg = await ThrowawayPostgres.start();
    await pg.stop();
    db = openPostgres(pg.url, { max: 2, sessionUrl: pg.url, timeoutMs: 1000 });
  });
  afterAll(async () => {
    cache?.stop();
    await db?.close();
    await pg?.destroy();
  });

  it('starts caching once a LISTEN that failed at start is in place', async () => {
    cache = new PrincipalCache<{ v: number }>({ maxAgeMs: 400, aliveEveryMs: 25, channel: 'qc_auth_late_listen' });
    await expect(cache.listen(db)).rejects.toThrow();
    let loads = 0;
    const get = () => (cache as PrincipalCache<{ v: number }>).get('k', async () => ({ v: ++loads }));

    await pg.start();
    // Caching: two look-ups in a row load once. Without the LISTEN every look-up loads.
    const deadline = Date.now() + 15_000;
    let cached = false;
    while (!cached && Date.now() < deadline) {
      const before = loads;
      await get();
      await get();
      cached = loads === before + 1;
      if (!cached) await Bun.sleep(100);
    }
    expect(cached).toBe(true);
  });
});
