import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Db } from '../db/db.ts';
import { openPostgres } from '../db/postgres.ts';
import { PrincipalCache } from './principal-cache.ts';

/**
 * The principal cache keeps a row past its max age only while its own heartbeats come back through the
 * database (proof that every change notified before them was delivered); a change clears it at once; when the
 * heartbeats stop coming back (a listening connection lost without a word) rows age out as before. Each test
 * listens on a channel of its own, so the suite's other auth changes do not clear these caches.
 */
const MAX_AGE_MS = 400;
const ALIVE_EVERY_MS = 25;

let channelSeq = 0;
const channel = () => `qc_auth_cache_test_${process.pid}_${channelSeq++}`;

/** A db whose outgoing heartbeats are dropped, as if the listening connection had silently gone. */
const withoutHeartbeats = (db: Db): Db => ({ ...db, notify: async () => {} });

/** A cache on `db` and a loader that counts its loads. */
async function cacheOn(db: Db, on = channel()) {
  const cache = new PrincipalCache<{ v: number }>({ maxAgeMs: MAX_AGE_MS, aliveEveryMs: ALIVE_EVERY_MS, channel: on });
  await cache.listen(db);
  let loads = 0;
  const get = () =>
    cache.get('k', async () => {
      loads++;
      return { v: loads };
    });
  return { cache, get, loads: () => loads, channel: on };
}

/** Calls `get` every 10 ms for `ms`. */
async function keepAsking(get: () => Promise<unknown>, ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    await get();
    await Bun.sleep(10);
  }
}

// PostgreSQL's LISTEN/NOTIFY on connections of its own: not on the embedded default (one connection).
describe.skipIf(!process.env.DATABASE_URL)('principal cache', () => {
  let db: Db;
  let other: Db;
  const caches: PrincipalCache<unknown>[] = [];

  beforeAll(() => {
    const options = { max: 2, sessionUrl: process.env.DATABASE_SESSION_URL };
    db = openPostgres(process.env.DATABASE_URL as string, options);
    other = openPostgres(process.env.DATABASE_URL as string, options);
  });
  afterAll(async () => {
    for (const cache of caches) cache.stop();
    await Promise.all([db?.close(), other?.close()]);
  });

  it('get keeps a row past its max age while its heartbeats come back', async () => {
    const c = await cacheOn(db);
    caches.push(c.cache);
    await c.get();
    await keepAsking(c.get, MAX_AGE_MS * 4);
    expect(c.loads()).toBe(1);
  });

  it('get reloads a row at once after a change is notified on the channel', async () => {
    const c = await cacheOn(db);
    caches.push(c.cache);
    await c.get();
    await other.query('select pg_notify($1, $2)', [c.channel, '']);
    const until = performance.now() + 1000;
    while (c.loads() < 2 && performance.now() < until) {
      await c.get();
      await Bun.sleep(5);
    }
    expect(c.loads()).toBe(2);
  });

  it('get lets a row age out when the heartbeats stop coming back', async () => {
    const c = await cacheOn(withoutHeartbeats(db));
    caches.push(c.cache);
    await c.get();
    await keepAsking(c.get, MAX_AGE_MS * 4);
    // Reloaded about every MAX_AGE_MS: 4 or 5 loads in 4 max ages, never the single load of a proven listener.
    expect(c.loads()).toBeGreaterThanOrEqual(3);
    expect(c.loads()).toBeLessThanOrEqual(8);
  });

  it('sync resolves after a change committed before it has reached the cache, and keeps untouched rows', async () => {
    const c = await cacheOn(db);
    caches.push(c.cache);
    await c.get();
    await c.cache.sync();
    await c.get();
    expect(c.loads()).toBe(1);
    // A change committed (notified) just before the sync: the sync does not resolve before it has cleared the row.
    await other.query('select pg_notify($1, $2)', [c.channel, '']);
    await c.cache.sync();
    await c.get();
    expect(c.loads()).toBe(2);
  });

  it('sync clears the cache when its heartbeat does not come back', async () => {
    const c = await cacheOn(withoutHeartbeats(db));
    caches.push(c.cache);
    await c.get();
    await c.cache.sync();
    await c.get();
    expect(c.loads()).toBe(2);
  });

  it("get counts only this cache's own heartbeats as proof, and another's never clears it", async () => {
    const shared = channel();
    const deaf = await cacheOn(withoutHeartbeats(db), shared);
    const beating = await cacheOn(other, shared);
    caches.push(deaf.cache, beating.cache);
    await deaf.get();
    await beating.get();
    await keepAsking(async () => {
      await deaf.get();
      await beating.get();
    }, MAX_AGE_MS * 4);
    expect(beating.loads()).toBe(1);
    // Aged out about every MAX_AGE_MS (the other's heartbeats proved nothing), not cleared by each of them.
    expect(deaf.loads()).toBeGreaterThanOrEqual(3);
    expect(deaf.loads()).toBeLessThanOrEqual(8);
  });
});
