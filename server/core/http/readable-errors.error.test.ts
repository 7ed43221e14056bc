import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { perFile, startTestApp, testAppPerFile } from '../../testing/harness.ts';

let property: string;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  property = demo.properties[0]!.external_property_id;
});

describe('errors people can read', () => {
  it('puts a detail sentence from the catalogue beside the unchanged key', async () => {
    const res = await t.request('GET', '/v1/qc/properties/00000000-0000-4000-8000-000000000000', {
      token: demo.personal_token,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      status: 'error',
      message: 'errors.not_found',
      detail: 'No such resource, or it is outside the properties this token may act on.',
    });
  });

  it('names the first failing field of a validation error in its detail, and counts the others', async () => {
    const res = await t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, {
      token: demo.personal_token,
      body: { values: [{ date_from: 'soon', room_type_id: 7 }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.validation_error');
    const fields = Object.keys(res.body.errors);
    expect(fields.length).toBeGreaterThan(1);
    expect(res.body.detail).toStartWith(`${fields[0]}: `);
    expect(res.body.detail).toEndWith(`${fields.length - 1} more fields failed too: the errors map lists each.`);
  });

  it('answers 401 without credentials with a bare Bearer challenge (RFC 6750)', async () => {
    const res = await t.request('GET', '/v1/qc/properties');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
  });

  it('answers 401 for a refused token with error="invalid_token"', async () => {
    for (const token of ['qc_not_a_real_token', 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln']) {
      const res = await t.request('GET', '/v1/qc/properties', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
  });

  it('answers 403 insufficient_scope with error="insufficient_scope" and the scope needed', async () => {
    const c = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'] });
    const res = await t.request('GET', `/v1/qc/properties/${property}/room_types`, { token: c.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorEnvelope('errors.qc.insufficient_scope'));
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="inventory.read"');
  });

  it('answers a JSON body sent as a form (curl -d) with 415 naming the media type, not an unknown field', async () => {
    const res = await t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, {
      token: demo.personal_token,
      raw: '{"values":[]}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual(
      errorEnvelope('errors.qc.unsupported_media_type', {
        detail: 'This endpoint reads application/json: send the body with Content-Type: application/json.',
        accepted_content_types: ['application/json'],
      }),
    );
  });

  it('answers JSON sent to the multipart-only gallery upload with a 415 whose sentence names multipart, not JSON', async () => {
    const res = await t.request('POST', '/v1/qc/gallery', { token: demo.personal_token, body: { images: [] } });
    expect(res.status).toBe(415);
    expect(res.body.accepted_content_types).toEqual(['multipart/form-data']);
    expect(res.body.detail).toBe(
      'This endpoint reads multipart/form-data: send the body with Content-Type: multipart/form-data.',
    );
  });

  it('answers a body with no Content-Type at all with 415 too, and still 401 first without a token', async () => {
    const untyped = await t.app.handle(
      new Request(`http://localhost/v1/qc/properties/${property}/inventory/availability`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.personal_token}` },
        body: new Blob(['{"values":[]}']),
      }),
    );
    expect(untyped.status).toBe(415);
    const anonymous = await t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, {
      raw: '{"values":[]}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(anonymous.status).toBe(401);
  });

  it('still reads a real form where every body field is text (nothing that worked in v1 stops working)', async () => {
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      form: { partner_name: 'Form-encoded name' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.partner_name).toBe('Form-encoded name');
  });

  it('answers a real form sent to a route a form cannot write (numbers, lists) with 415 naming JSON alone', async () => {
    for (const [path, form] of [
      [`/v1/qc/properties/${property}/inventory/availability`, { values: 'x' }],
      [`/v1/qc/properties/${property}/extra_services`, { name: 'Form', price: '1', price_type: '1' }],
    ] as const) {
      const res = await t.request('POST', path, { token: demo.personal_token, form });
      expect(res.status).toBe(415);
      expect(res.body.accepted_content_types).toEqual(['application/json']);
    }
    const text = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      raw: 'partner_name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.body.accepted_content_types).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
  });

  it('answers the form-encoded token endpoint with a 415 that asks for its form first (spec 4.1), not JSON', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.accepted_content_types).toEqual(['application/x-www-form-urlencoded', 'application/json']);
    expect(res.body.detail).toBe(
      'This endpoint reads application/x-www-form-urlencoded, application/json: send the body with Content-Type: application/x-www-form-urlencoded.',
    );
  });

  it('still reads application/json with a charset and the token endpoint form', async () => {
    const res = await t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, {
      token: demo.personal_token,
      raw: '{"values":[]}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).not.toBe(415);
    await t.oauthToken(demo.client.client_id, demo.client.client_secret);
  });

  it('names the development switch when a webhook URL is not https', async () => {
    const strict = await startTestApp({ env: { QC_WEBHOOK_ALLOW_PRIVATE: '0' } });
    try {
      const owner = await strict.demo();
      const res = await strict.request('POST', '/v1/qc/subscriptions', {
        token: owner.personal_token,
        body: { url: 'http://127.0.0.1:4242/', event_types: ['booking.created'] },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ url: ['customer.subscription.messages.https_required'] });
      expect(res.body.detail).toContain('QC_WEBHOOK_ALLOW_PRIVATE=1');
    } finally {
      await strict.close();
    }
  });
});
