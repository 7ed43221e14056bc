import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { childPort } from './testing/free-port.ts';
import { TEST_KEY_ENCRYPTION_KEY } from './testing/harness.ts';

/**
 * A supervisor (or a test) may send SIGTERM as soon as /healthz answers, while start-up is still seeding the
 * demo on an empty database: the process must shut down cleanly (exit 0), not crash on the database that the
 * shutdown closed under the seeding.
 */
// Makes a PostgreSQL database of its own (the embedded default's first start is pinned by server/smoke).
describe.skipIf(!process.env.DATABASE_URL)('SIGTERM while start-up still runs', () => {
  it('exits 0 when stopped at the first /healthz answer, before the demo is seeded', async () => {
    // An empty database of its own, so start-up seeds the demo (the shared test database has customers).
    const base = new URL(process.env.DATABASE_URL as string);
    const name = `qc_shutdown_${process.pid}_${Date.now()}`;
    const admin = postgres({
      host: base.hostname,
      port: Number(base.port || 5432),
      user: base.username,
      database: 'postgres',
      max: 1,
      onnotice: () => {},
    });
    await admin.unsafe(`create database ${name}`);
    const databaseUrl = new URL(base);
    databaseUrl.pathname = `/${name}`;
    // Through a transaction pooler (npm run test:pooler) the direct URL names the same new database.
    const sessionUrl = process.env.DATABASE_SESSION_URL ? new URL(process.env.DATABASE_SESSION_URL) : undefined;
    if (sessionUrl) sessionUrl.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'qc-shutdown-'));
    const port = childPort();
    const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl.toString(),
        DATABASE_SESSION_URL: sessionUrl?.toString(),
        REDIS_URL: '',
        QC_DATA_DIR: dataDir,
        QC_DEMO_ON_EMPTY: '1',
        QC_LOG_LEVEL: 'error',
        QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    try {
      for (let i = 0; i < 600 && proc.exitCode === null; i++) {
        const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        await Bun.sleep(25);
      }
      proc.kill('SIGTERM');
      const code = await Promise.race([proc.exited, Bun.sleep(20_000).then(() => 'timeout')]);
      const stderr = await new Response(proc.stderr).text();
      expect({ code, crash: /^error: |Unhandled/m.test(stderr) ? stderr.slice(0, 500) : null }).toEqual({
        code: 0,
        crash: null,
      });
    } finally {
      proc.kill('SIGKILL');
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 60_000);
});
