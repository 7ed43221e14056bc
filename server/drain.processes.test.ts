import { describe, expect, it } from 'bun:test';
import { TEST_KEY_ENCRYPTION_KEY } from './testing/harness.ts';
import { ServerProcess } from './testing/server-process.ts';

/**
 * SIGTERM behind a balancer: the listener closed at once, so a request the balancer sent in that moment, on a
 * kept-alive connection, met a closing socket. With QC_DRAIN_MS the process first says it is leaving
 * (/readyz 503, `checks.accepting: down`) while it keeps serving, and closes the listener only after that.
 */
describe('a SIGTERM with QC_DRAIN_MS', () => {
  it('answers /readyz 503 at once, keeps serving requests for the drain time, then exits 0', async () => {
    const server = await ServerProcess.start({
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: 'drain-operator-token-0123',
      QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
      QC_DRAIN_MS: '1500',
    });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks.accepting).toBe('ok');

    const stopped = server.stop();
    let draining: { status: number; checks: Record<string, string> } | undefined;
    for (let i = 0; i < 50 && !draining; i++) {
      const res = await fetch(`${server.url}/readyz`);
      if (res.status === 503) draining = { status: 503, ...((await res.json()) as { checks: Record<string, string> }) };
      else await Bun.sleep(10);
    }
    expect(draining?.checks.accepting).toBe('down');
    // Still serving while the balancer takes it out.
    const served = await fetch(`${server.url}/v1/qc/.well-known/jwks.json`);
    expect(served.status).toBe(200);
    expect(await stopped).toBe(0);
  }, 60_000);
});
