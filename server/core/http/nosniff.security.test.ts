import { describe, expect, it } from 'bun:test';
import { templateBody } from '../../auto-email-templates/test-fixtures.ts';
import { OPERATOR_TOKEN, perFile, type RequestOptions, testAppPerFile } from '../../testing/harness.ts';

/**
 * Issue 25 N14: stored strings (content pages, feedback, replies, templates) come back as the partner wrote
 * them, markup included; no answer carried `X-Content-Type-Options`, so a browser could sniff one into HTML.
 * Every answer of the service now carries `nosniff`, whatever the surface, the status or who built it.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every kind of answer: success, refusal, unmatched, operator, metrics, docs, JWKS, legacy, media', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const cases: [string, string, RequestOptions][] = [
      ['GET', '/healthz', {}],
      ['GET', '/v1/qc/properties', { token: demo.personal_token }],
      ['GET', '/v1/qc/properties', {}],
      ['GET', '/v1/qc/no-such-route', { token: demo.personal_token }],
      ['GET', '/no-such-path', {}],
      ['POST', '/v1/qc/bookings', { token: demo.personal_token, raw: '{' }],
      [
        'POST',
        '/v1/qc/oauth/token',
        { form: { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' } },
      ],
      ['GET', '/v1/qc/.well-known/jwks.json', {}],
      ['GET', '/v1/qc/openapi.json', {}],
      ['GET', '/v1/qc/docs', {}],
      ['GET', '/metrics', { token: OPERATOR_TOKEN }],
      ['POST', '/ops/customers', { token: OPERATOR_TOKEN, body: { name: 'Nosniff' } }],
      ['POST', '/ops/customers', { token: OPERATOR_TOKEN, raw: '{' }],
      ['GET', '/api/v1/pem-systems/qc/api-tokens', { token: session }],
      ['GET', `/api/pms/v1/property/getRoomsDetails?api_key=${demo.legacy_api_key}`, {}],
      ['GET', '/api/pms/v1/no/such', {}],
      ['GET', '/media/gallery/no-such-image.png', {}],
    ];
    const missing: string[] = [];
    for (const [method, path, options] of cases) {
      const res = await t.request(method, path, options);
      if (res.headers.get('x-content-type-options') !== 'nosniff') missing.push(`${method} ${path} ${res.status}`);
    }
    expect(missing).toEqual([]);
  });

  it('is on a replayed idempotent answer', async () => {
    const key = crypto.randomUUID();
    const send = () =>
      t.request('POST', '/v1/qc/bookings', {
        token: demo.personal_token,
        raw: '{',
        headers: { 'idempotency-key': key },
      });
    await send();
    const replay = await send();
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('keeps a template preview as text: markup is a JSON string, answered with nosniff, never text/html', async () => {
    const markup = '<p>{guest_first_name}</p><script>alert(1)</script><img src=x onerror=alert(2)>';
    const created = await t.request('POST', '/v1/qc/auto_email_templates', {
      token: demo.personal_token,
      body: templateBody(demo, { body_html: { 'en-GB': markup } }),
    });
    const preview = await t.request('GET', `/v1/qc/auto_email_templates/${created.body.data.id}/preview`, {
      token: demo.personal_token,
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toStartWith('application/json');
    expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
    expect(preview.body.data.body_html).toBe('<p>Maria</p><script>alert(1)</script><img src=x onerror=alert(2)>');
  });
});
