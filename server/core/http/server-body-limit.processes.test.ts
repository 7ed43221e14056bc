import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { ServerProcess } from '../../testing/server-process.ts';
import { MAX_REQUEST_BODY_BYTES } from './read-body.ts';

/**
 * Issue 16 defect 3, the surfaces outside the modern pipeline (operator API, dashboard, legacy facade): Bun's
 * default let a 128 MiB body in. A real `server/main.ts` refuses a body over the server's bound with 413.
 */
describe('the server-wide body bound', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await ServerProcess.start({
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: '',
      QC_OPERATOR_TOKEN: 'server-body-limit-operator-token',
    });
  }, 60_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('answers 413 to an unauthenticated body over the bound on a dashboard route, and keeps serving', async () => {
    const res = await fetch(`${server.url}/api/v1/pem-systems/qc/api-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array(MAX_REQUEST_BODY_BYTES + 1024),
    });
    expect(res.status).toBe(413);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
