import { describe, expect, it } from 'bun:test';
import { TEST_KEY_ENCRYPTION_KEY } from './testing/harness.ts';
import { ServerProcess } from './testing/server-process.ts';

/**
 * Issue 16 defect 8: a second `npm start` on a busy port silently shared it (Bun listens with SO_REUSEPORT
 * by default), so two versions could answer the same port at random. Now it stops with a message, unless
 * QC_REUSE_PORT=1 asks for several processes on one port.
 */
const env = {
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: '',
  QC_OPERATOR_TOKEN: 'busy-port-operator-token',
  QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
};

describe('starting on a busy port', () => {
  it('stops the second process with a message naming the port, and leaves the first serving', async () => {
    const first = await ServerProcess.start(env);
    try {
      const port = new URL(first.url).port;
      const second = Bun.spawn([process.execPath, 'server/main.ts'], {
        env: { ...process.env, ...env, QC_LOG_LEVEL: 'error', QC_DEMO_ON_EMPTY: '0', PORT: port, HOST: '127.0.0.1' },
        stdout: 'ignore',
        stderr: 'pipe',
      });
      expect(await second.exited).toBe(1);
      expect(await new Response(second.stderr).text()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  }, 60_000);

  it('lets several processes share the port when QC_REUSE_PORT=1 asks for it', async () => {
    const first = await ServerProcess.start({ ...env, QC_REUSE_PORT: '1' });
    const second = await ServerProcess.start({ ...env, QC_REUSE_PORT: '1', PORT: new URL(first.url).port }).catch(
      async (err) => {
        await first.stop();
        throw err;
      },
    );
    try {
      // /healthz may have been answered by the first: once it is gone, the second must be serving the port.
      expect(await first.stop()).toBe(0);
      const deadline = Date.now() + 30_000;
      let healthy = false;
      while (!healthy && Date.now() < deadline) {
        healthy = await fetch(`${second.url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (!healthy) await Bun.sleep(100);
      }
      expect(healthy).toBe(true);
    } finally {
      // Whatever failed above, neither process may outlive the test: a stray server relays the shared outbox.
      await first.stop();
      expect(await second.stop()).toBe(0);
    }
  }, 60_000);
});
