import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import type { Db } from '../core/db/db.ts';
import { openPostgres } from '../core/db/postgres.ts';
import type { Log, LogFields } from '../core/log.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { ThrowawayPostgres } from '../testing/throwaway-postgres.ts';
import { startWebhooks } from './dispatcher.ts';

/**
 * The outbox relay of a process started while its LISTEN session's database was out of reach: start-up goes on
 * (the relay polls), the driver keeps trying the LISTEN, and once it is in place the operator is told so, once. The
 * LISTEN goes to a PostgreSQL of its own, which this test starts only after the relay.
 */
setDefaultTimeout(60_000);

describe.skipIf(!process.env.DATABASE_URL)('outbox relay LISTEN', () => {
  let pg: ThrowawayPostgres;
  let listenDb: Db;
  let t: TestApp;

  beforeAll(async () => {
    pg = await ThrowawayPostgres.start();
    await pg.stop();
    listenDb = openPostgres(pg.url, { max: 1, timeoutMs: 1000 });
    t = await startTestApp({ env: { REDIS_URL: '' } });
  });
  afterAll(async () => {
    await t?.close();
    await listenDb?.close();
    await pg?.destroy();
  });

  it('logs once when a LISTEN that failed at start is in place', async () => {
    const lines: string[] = [];
    const record = (level: string) => (msg: string, _fields?: LogFields) => lines.push(`${level} ${msg}`);
    const log: Log = { info: record('info'), warn: record('warn'), error: record('error') };
    // The app's database for everything but LISTEN, which goes to the stopped server.
    const db: Db = { ...t.deps.db, listen: (channel, onNotify) => listenDb.listen(channel, onNotify) };
    const webhooks = await startWebhooks({ ...t.deps, db, log }, { pollMs: 60_000 });
    try {
      expect(lines.filter((l) => l.startsWith('warn outbox LISTEN unavailable'))).toHaveLength(1);
      await pg.start();
      const deadline = Date.now() + 15_000;
      const inPlace = 'info outbox LISTEN in place; the relay is woken on commit again';
      while (!lines.includes(inPlace) && Date.now() < deadline) await Bun.sleep(50);
      await listenDb.notify('qc_outbox', '');
      await Bun.sleep(200);
      expect(lines.filter((l) => l === inPlace)).toHaveLength(1);
    } finally {
      await webhooks.stop();
    }
  });
});
