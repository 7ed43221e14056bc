import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import postgres from 'postgres';
import { freePortRun } from '../../server/testing/free-port.ts';
import { type PostgresPair, startPostgresPair } from './postgres.ts';

// initdb and pg_basebackup take seconds on a loaded machine.
setDefaultTimeout(120_000);

/**
 * The multi-host URL the topology gives the services (DATABASE_SESSION_URL, or DATABASE_URL without a pooler)
 * under a termination storm. postgres.js 3.4.9 took a hot standby for a read-write server (patched on main,
 * server/core/db/failover.processes.test.ts); and a statement written between a socket error and the close of
 * a terminated connection was never answered: it hung, and a raw client with it (the patch,
 * patches/postgres+3.4.9.patch, now fails it with CONNECTION_CLOSED). Each query here either answers or
 * fails, on the primary, however often its backend is terminated.
 */
describe('a multi-host DATABASE_URL with target_session_attrs=read-write', () => {
  let pair: PostgresPair;
  beforeAll(async () => {
    pair = await startPostgresPair({ port: freePortRun(22000, 22999, 2), databases: ['qc_cluster_multihost'] });
  });
  afterAll(() => pair?.stop());

  test('connects to the primary even when the standby is listed first, and again after its backend is terminated', async () => {
    const url = `postgres://postgres@127.0.0.1:${pair.standbyPort},127.0.0.1:${pair.primaryPort}/qc_cluster_multihost?target_session_attrs=read-write`;
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const admin = postgres(pair.primaryUrl('qc_cluster_multihost'), { max: 1, onnotice: () => {} });
    try {
      const server = async () => (await sql`select pg_is_in_recovery() as standby`)[0]?.standby;
      expect(await server()).toBe(false);
      for (let i = 0; i < 3; i++) {
        await admin`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = 'qc_cluster_multihost' and pid <> pg_backend_pid()`;
        // The terminated connection's next queries may fail (never hang); the reconnection lands on the primary.
        await sql`select 1`.catch(() => {});
        expect(await server().catch(server)).toBe(false);
      }
    } finally {
      await sql.end({ timeout: 1 });
      await admin.end({ timeout: 1 });
    }
  });
});
