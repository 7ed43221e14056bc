import { describe, expect, it } from 'bun:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('POST /v1/qc/oauth/token', () => {
  it('issues an RS256 JWT for 3600 s with a kid, not wrapped in the envelope', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: demo.client.client_id,
        client_secret: demo.client.client_secret,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBeUndefined();
    expect(res.body.token_type).toBe('Bearer');
    expect(res.body.expires_in).toBe(3600);
    expect(res.body.account_scoped).toBeUndefined();
    const header = decodeProtectedHeader(res.body.access_token);
    expect(header.alg).toBe('RS256');
    expect(typeof header.kid).toBe('string');
    const claims = decodeJwt(res.body.access_token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
    expect(claims.sub).toBe(demo.client.client_id);
  });

  it('publishes the signing key in the JWKS under the token kid', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const jwks = await t.request('GET', '/v1/qc/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const kids = jwks.body.keys.map((k: { kid: string }) => k.kid);
    expect(kids).toContain(decodeProtectedHeader(token).kid);
    expect(jwks.body.keys.every((k: Record<string, unknown>) => !('d' in k))).toBe(true);
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${demo.client.client_id}:${demo.client.client_secret}`).toString('base64');
    const res = await t.request('POST', '/v1/qc/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(200);
  });

  it('narrows the token to a requested scope subset and enforces it', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret, 'bookings.read');
    expect(decodeJwt(token).scope).toBe('bookings.read');
    const property = demo.properties[0]?.external_property_id;
    const denied = await t.request('GET', `/v1/qc/properties/${property}/room_types`, { token });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('errors.qc.insufficient_scope');
  });

  it('answers account-scoped clients with account_scoped true and property_ids null', async () => {
    const res = await t.ops('POST', '/ops/clients', {
      customer_id: demo.customer_id,
      scopes: ['bookings.read'],
      account_scoped: true,
    });
    const { client_id, client_secret } = res.body.data;
    const token = await t.request('POST', '/v1/qc/oauth/token', {
      form: { grant_type: 'client_credentials', client_id, client_secret },
    });
    expect(token.status).toBe(200);
    expect(token.body.account_scoped).toBe(true);
    expect(token.body.property_ids).toBeNull();
  });

  it('lets a token reach the API: the demo client lists its two properties', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const res = await t.request('GET', '/v1/qc/properties', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.properties.map((p: { id: string }) => p.id).sort()).toEqual(
      demo.properties.map((p) => p.external_property_id).sort(),
    );
    expect(res.body.data.meta).toEqual({ total: 2, page: 1, per_page: 200, last_page: 1 });
  });
});
