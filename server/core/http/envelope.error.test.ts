import { describe, expect, it } from 'bun:test';
import { errorEnvelope, validationEnvelope } from '../../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('error envelope', () => {
  it('answers an unknown modern route with 404 errors.not_found in the envelope', async () => {
    const res = await t.request('GET', '/v1/qc/no/such/route', { token: demo.personal_token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorEnvelope('errors.not_found'));
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('gives every response a request id and every error a support ticket that finds the logged incident', async () => {
    const okRes = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect(okRes.headers.get('x-qc-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(okRes.headers.get('x-qc-support-ticket')).toBeNull();

    const err = await t.request('GET', '/v1/qc/properties/00000000-0000-4000-8000-000000000000', {
      token: demo.personal_token,
    });
    const ticket = err.headers.get('x-qc-support-ticket') as string;
    const requestId = err.headers.get('x-qc-request-id');
    expect(ticket).toMatch(/^QC-[0-9A-F]{16}$/);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // Incidents are stored best-effort without blocking the answer; give the insert a moment.
    let incident: any;
    for (let i = 0; i < 20 && !incident; i++) {
      const res = await t.ops('GET', `/ops/incidents/${ticket}`);
      if (res.status === 200) incident = res.body.data;
      else await Bun.sleep(25);
    }
    expect(incident).toMatchObject({
      ticket,
      request_id: requestId,
      status: 404,
      error_key: 'errors.not_found',
      method: 'GET',
    });
  });

  it('maps query validation failures to 422 errors.validation_error keyed by field', async () => {
    const res = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token, query: { page: 'abc' } });
    expect(res.status).toBe(422);
    expect(res.body.status).toBe('error');
    expect(res.body.message).toBe('errors.validation_error');
    expect(Object.keys(res.body.errors)).toEqual(['page']);
    expect(res.body.errors.page[0]).toMatch(/^customer\.property\.messages\.[a-z_]+$/);
    expect(res.text).not.toContain('"type":"validation"');
  });

  it('maps a malformed JSON body to 422 in the envelope, never a 500 or a stack trace', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const res = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', { token: session, raw: '{"name": ' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      validationEnvelope('body: is not valid JSON.', { body: ['customer.request.messages.malformed'] }),
    );
    expect(res.text).not.toMatch(/at .*\.ts/);
  });

  it('answers the operator API with 401 in the envelope without the operator token', async () => {
    const res = await t.request('POST', '/ops/demo', { token: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
  });
});

describe('operations endpoints', () => {
  it('reports liveness and readiness with the database reachable', async () => {
    expect((await t.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await t.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toBe('ok');
  });
});
