import { afterAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../demo/demo.ts';
import { ServerProcess } from '../testing/server-process.ts';

/**
 * Issue 23: SIGTERM drains in-flight requests. A request held up by a slow upstream (analytics, 1.5 s) is in
 * flight when the process gets SIGTERM: it still gets its answer, then the process exits 0.
 */
const OPERATOR = 'sigterm-drain-operator-token';

describe.skipIf(!process.env.DATABASE_URL)('SIGTERM with a request in flight', () => {
  let release: () => void = () => {};
  let arrived: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const upstream = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async () => {
      arrived();
      await new Promise<void>((resolve) => {
        release = resolve;
        setTimeout(resolve, 1500);
      });
      return Response.json({ data: {} });
    },
  });
  afterAll(() => {
    release();
    upstream.stop(true);
  });

  it('answers the request in flight, then exits 0', async () => {
    const server = await ServerProcess.start({
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: OPERATOR,
      QC_ANALYTICS_URL: `http://127.0.0.1:${upstream.port}`,
      QC_ANALYTICS_TIMEOUT_MS: '10000',
    });
    let stopped: Promise<number> | undefined;
    try {
      const demo = (await (
        await fetch(`${server.url}/ops/demo`, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR}` } })
      ).json()) as { data: Demo };
      const property = (demo.data.properties[0] as unknown as { external_property_id: string }).external_property_id;
      const inFlight = fetch(
        `${server.url}/v1/qc/properties/${property}/analytics/overview?from=2026-01-01&to=2026-01-31`,
        { headers: { authorization: `Bearer ${demo.data.personal_token}` } },
      );
      await reached;
      stopped = server.stop();
      const answer = await inFlight;
      // An HTTP answer (the upstream's shape is not a report: 502), not a reset connection.
      expect([200, 502]).toContain(answer.status);
      expect(await stopped).toBe(0);
    } finally {
      if (!stopped) await server.stop();
    }
  });
});
