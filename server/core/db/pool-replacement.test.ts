import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { TcpProxy } from '../../testing/tcp-proxy.ts';
import { type Db, isDatabaseUnavailable } from './db.ts';
import { openPostgres, PoolHealth } from './postgres.ts';

/**
 * Issue 23's wedge: a process whose pooled connections had all gone silent (the peer gone without FIN or RST,
 * as after a failover or a dropped path) answered 503 to every request until restarted, while PostgreSQL
 * itself took new connections. Through a relay that silences the pool's open connections: the pool is
 * replaced once it has failed for two statement deadlines while a fresh connection answers, and serves again
 * without a restart. Before, postgres.js kept the silent connections until TCP keep-alive gave up (minutes).
 */
describe.skipIf(!process.env.DATABASE_URL)('a pool whose connections all went silent', () => {
  let proxy: TcpProxy;
  let db: Db;

  beforeAll(() => {
    const url = new URL(process.env.DATABASE_URL as string);
    proxy = TcpProxy.start(Number(url.port || 5432));
    url.host = `127.0.0.1:${proxy.port}`;
    db = openPostgres(url.toString(), { max: 3, timeoutMs: 300, sessionUrl: process.env.DATABASE_SESSION_URL });
  });
  afterAll(async () => {
    await db.close().catch(() => {});
    proxy.stop();
  });

  it('is replaced by a fresh pool once the database answers a new connection, and serves again', async () => {
    // Open all three connections (three statements overlapping long enough on a loaded machine), then silence
    // them; a statement never finds a connection the relay still passes. On a loaded machine connecting can take
    // longer than the 300 ms deadline: again until all three answered.
    for (let attempt = 0; attempt < 20; attempt++) {
      const opened = await Promise.all(
        [1, 2, 3].map(() =>
          db.sql`select pg_sleep(0.1)`.then(
            () => true,
            () => false,
          ),
        ),
      );
      if (opened.every(Boolean)) break;
    }
    proxy.silence();
    const outcomes: string[] = [];
    let served = false;
    for (let attempt = 0; attempt < 40 && !served; attempt++) {
      try {
        await db.tx(async (tx) => tx.sql`select 1`);
        served = true;
        outcomes.push('ok');
      } catch (err) {
        // The error is named in the failure message, should it ever be another kind.
        expect({ unavailable: isDatabaseUnavailable(err), error: String(err) }).toMatchObject({ unavailable: true });
        outcomes.push('503');
      }
    }
    // Some statements failed first (the wedge was real), then the pool served again on its own.
    expect(outcomes[0]).toBe('503');
    expect(served).toBe(true);
    expect(db.stuckForMs?.()).toBe(0);
  });
});

describe('pool health (liveness)', () => {
  it('counts as stuck only while the pool fails on after a replacement although the database answers', () => {
    let replacements = 0;
    const health = new PoolHealth(1000, () => replacements++);
    health.failed(0);
    health.failed(500);
    expect(replacements).toBe(0);
    // Two deadlines of failures: replaced (the probe answered). Not stuck yet: the new pool may well serve.
    health.failed(1000);
    expect(replacements).toBe(1);
    health.probed(true, 1000);
    health.replaced();
    expect(health.stuckForMs()).toBe(0);
    // Still failing a replacement interval later, the database still answering: stuck from then on.
    health.failed(2000);
    expect(replacements).toBe(2);
    health.probed(true, 2000);
    health.replaced();
    health.failed(32_000);
    expect(health.stuckForMs()).toBe(30_000);
    // The database itself is out of reach: a restart would not help, so not stuck.
    health.probed(false, 33_000);
    expect(health.stuckForMs()).toBe(0);
    // One success and it is healthy again.
    health.probed(true, 34_000);
    health.succeeded();
    health.failed(35_000);
    expect(health.stuckForMs()).toBe(0);
  });

  it('does not count a process without traffic as stuck', () => {
    const health = new PoolHealth(1000, () => {});
    health.failed(0);
    health.failed(1000);
    health.probed(true, 1000);
    health.replaced();
    health.failed(2000);
    health.probed(true, 2000);
    // No statement since: however long nothing asks, nothing says the new pool fails.
    expect(health.stuckForMs()).toBe(0);
  });
});
