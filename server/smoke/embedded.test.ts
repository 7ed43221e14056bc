import { describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Smoke suite on the embedded default (PGlite, in-process queue, limiter and caches), run by `npm test`
 * with DATABASE_URL and REDIS_URL unset. The full suite runs on PostgreSQL and Redis.
 */

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('embedded backend', () => {
  it('runs on PGlite', () => {
    expect(t.deps.db.kind).toBe('pglite');
  });

  it('issues tokens and serves the demo properties', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const res = await t.request('GET', '/v1/qc/properties', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.properties).toHaveLength(2);
    const personal = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.partner_code}`, {
      token: demo.personal_token,
    });
    expect(personal.body.data.mode).toBe('live');
  });

  it('renders errors in the envelope with a support ticket', async () => {
    const res = await t.request('GET', '/v1/qc/nowhere', { token: demo.personal_token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorEnvelope('errors.not_found'));
    expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
  });
});
