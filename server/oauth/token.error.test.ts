import { describe, expect, it } from 'bun:test';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { ManualClock } from '../core/clock.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const clock = new ManualClock(new Date());

const t = testAppPerFile({ clock });
const demo = perFile(() => t.demo());

const form = (over: Record<string, string>) => ({
  form: {
    grant_type: 'client_credentials',
    client_id: demo.client.client_id,
    client_secret: demo.client.client_secret,
    ...over,
  },
});

const basic = (raw: string) => ({ authorization: `Basic ${Buffer.from(raw, 'utf8').toString('base64')}` });

describe('token endpoint failures', () => {
  it('carries the RFC 6749 error code beside the key, for OAuth client libraries', async () => {
    const wrongSecret = await t.request('POST', '/v1/qc/oauth/token', form({ client_secret: 'wrong' }));
    expect([wrongSecret.status, wrongSecret.body.error]).toEqual([401, 'invalid_client']);
    const scope = await t.request('POST', '/v1/qc/oauth/token', form({ scope: 'inventory.read nonsense.scope' }));
    expect(scope.body).toEqual(errorEnvelope('errors.qc.invalid_scope', { error: 'invalid_scope' }));
    const grant = await t.request('POST', '/v1/qc/oauth/token', form({ grant_type: 'password' }));
    expect([grant.status, grant.body.message, grant.body.error]).toEqual([
      422,
      'errors.validation_error',
      'unsupported_grant_type',
    ]);
    const { grant_type: _, ...noGrant } = form({}).form;
    const missing = await t.request('POST', '/v1/qc/oauth/token', { form: noGrant });
    expect([missing.status, missing.body.error]).toEqual([422, 'invalid_request']);
    // A missing parameter (RFC 6749 5.2): the field's rule agrees with `error`, as on every missing field.
    expect(missing.body.errors).toEqual({ grant_type: ['customer.oauth.messages.required'] });
    expect(missing.body.detail).toBe('grant_type: is required and was missing.');
  });

  it('answers no error field its OpenAPI operation leaves out: `error`, `accepted_content_types` documented', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const responses = doc.paths['/v1/qc/oauth/token'].post.responses;
    const envelope = Object.keys(doc.components.schemas.ErrorEnvelope.properties);
    const { grant_type: _, ...noGrant } = form({}).form;
    const answers = [
      await t.request('POST', '/v1/qc/oauth/token', form({ client_secret: 'wrong' })),
      await t.request('POST', '/v1/qc/oauth/token', form({ scope: 'nonsense.scope' })),
      await t.request('POST', '/v1/qc/oauth/token', form({ grant_type: 'password' })),
      await t.request('POST', '/v1/qc/oauth/token', { form: noGrant }),
      await t.request('POST', '/v1/qc/oauth/token', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
    ];
    expect(answers.map((res) => res.status)).toEqual([401, 422, 422, 422, 415]);
    for (const res of answers) {
      const own = responses[String(res.status)].content['application/json'].schema.allOf[1].properties;
      const undocumented = Object.keys(res.body).filter((field) => !envelope.includes(field) && !(field in own));
      expect([res.status, undocumented]).toEqual([res.status, []]);
      if (res.body.error === undefined) continue;
      const codes = own.error.anyOf?.map((code: { const: string }) => code.const) ?? [own.error.const];
      expect(codes).toContain(res.body.error);
    }
  });

  for (const [label, raw] of [
    ['an invalid percent-escape', 'qcc_x%zz:secret'],
    ['a truncated UTF-8 percent sequence', 'qcc_x:%E0%A4'],
    ['a lone percent sign', '%:%'],
    ['a percent-encoded NUL', 'qcc_x%00:secret'],
  ]) {
    it(`answers HTTP Basic with ${label} with 401 errors.qc.invalid_client, not a 500`, async () => {
      const res = await t.request('POST', '/v1/qc/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: basic(raw as string),
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(errorEnvelope('errors.qc.invalid_client', { error: 'invalid_client' }));
    });
  }

  it('answers a form client_id holding NUL with 401 errors.qc.invalid_client, not a 500', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', form({ client_id: 'qcc_\u0000' }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('errors.qc.invalid_client');
  });

  it('rejects a wrong secret with 401 errors.qc.invalid_client', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', form({ client_secret: 'nope' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorEnvelope('errors.qc.invalid_client', { error: 'invalid_client' }));
  });

  it('challenges HTTP Basic on every 401 (RFC 6749 5.2), with form credentials and with Basic alike', async () => {
    const replies = [
      await t.request('POST', '/v1/qc/oauth/token', form({ client_secret: 'nope' })),
      await t.request('POST', '/v1/qc/oauth/token', form({ client_id: 'qcc_unknown' })),
      await t.request('POST', '/v1/qc/oauth/token', { form: { grant_type: 'client_credentials' } }),
      await t.request('POST', '/v1/qc/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: basic(`${demo.client.client_id}:nope`),
      }),
      await t.request('POST', '/v1/qc/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: basic('qcc_x%zz:secret'),
      }),
    ];
    for (const res of replies) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="qc-connectivity", charset="UTF-8"');
    }
    // Refusals that are not 401 carry no challenge; the partner API's 401s keep theirs (Bearer).
    const scope = await t.request('POST', '/v1/qc/oauth/token', form({ scope: 'nonsense.scope' }));
    expect([scope.status, scope.headers.get('www-authenticate')]).toEqual([422, null]);
    const api = await t.request('GET', '/v1/qc/properties');
    expect([api.status, api.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
  });

  it('rejects an unknown client id with 401 errors.qc.invalid_client', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', form({ client_id: 'qcc_unknown' }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('errors.qc.invalid_client');
  });

  it('rejects a revoked client at the token endpoint and its existing tokens at once', async () => {
    const c = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'], property_ids: [] });
    const before = await t.request('GET', '/v1/qc/properties', { token: c.token });
    expect(before.status).toBe(200);
    expect((await t.ops('POST', `/ops/clients/${c.client_id}/revoke`)).status).toBe(200);
    const token = await t.request('POST', '/v1/qc/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: c.client_id, client_secret: c.client_secret },
    });
    expect(token.status).toBe(401);
    expect(token.body.message).toBe('errors.qc.invalid_client');
    const after = await t.request('GET', '/v1/qc/properties', { token: c.token });
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('errors.unauthorized');
  });

  it('rejects a scope outside the client allowed set with 422 errors.qc.invalid_scope', async () => {
    const c = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'] });
    const res = await t.request('POST', '/v1/qc/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: c.client_id,
        client_secret: c.client_secret,
        scope: 'bookings.read inventory.write',
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.invalid_scope');
  });

  it('rejects another grant type with a validation error on grant_type', async () => {
    const res = await t.request('POST', '/v1/qc/oauth/token', form({ grant_type: 'password' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.validation_error');
    expect(res.body.errors).toEqual({ grant_type: ['customer.oauth.messages.unsupported_grant_type'] });
  });
});

describe('bearer validation', () => {
  const property = () => `/v1/qc/properties/${demo.properties[0]?.external_property_id}`;
  const expectUnauthorized = async (authorization: string) => {
    const res = await t.request('GET', property(), { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
  };

  it('rejects an expired token', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    expect((await t.request('GET', property(), { token })).status).toBe(200);
    clock.advance(3601_000);
    try {
      await expectUnauthorized(`Bearer ${token}`);
    } finally {
      clock.advance(-3601_000);
    }
  });

  it('rejects malformed bearers and other schemes', async () => {
    await expectUnauthorized('Bearer not-a-jwt');
    await expectUnauthorized('Bearer a.b.c');
    await expectUnauthorized('Basic Zm9vOmJhcg==');
    await expectUnauthorized('Bearer qc_not-a-real-token');
  });

  it('rejects a token with a tampered payload (signature mismatch)', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const [h, , s] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'qcc_someone_else' })).toString('base64url');
    await expectUnauthorized(`Bearer ${h}.${payload}.${s}`);
  });

  it('rejects a token signed by a foreign key under our kid', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(decodeJwt(token))
      .setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(token).kid as string })
      .sign(privateKey);
    await expectUnauthorized(`Bearer ${forged}`);
  });

  it('rejects alg swaps: none and HS256 keyed with the public key', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const claims = decodeJwt(token);
    const kid = decodeProtectedHeader(token).kid as string;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    await expectUnauthorized(`Bearer ${none}`);
    const jwks = (await t.request('GET', '/v1/qc/.well-known/jwks.json')).body;
    const publicJwk = jwks.keys.find((k: { kid: string }) => k.kid === kid);
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    await expectUnauthorized(`Bearer ${hs}`);
  });
});
