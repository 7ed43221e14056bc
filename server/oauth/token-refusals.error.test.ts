import { describe, expect, it } from 'bun:test';
import { buildApp } from '../app.ts';
import { ManualClock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { OPERATOR_TOKEN, perFile, type Reply, testAppPerFile } from '../testing/harness.ts';
import { interceptStatements } from '../testing/intercept-statements.ts';

/**
 * The token endpoint's refusals that the pipeline or an outage answers, not its handler: OAuth client libraries
 * read RFC 6749 5.2's `error`, and those answers had none (a schema refusal, 413, 415, a 5xx), nor the
 * `Cache-Control: no-store` RFC 6749 5.1 and 5.2 ask of every token endpoint answer. The handler's own refusals
 * (401 invalid_client, 422 grant type and scope) are pinned in ./token.error.test.ts.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const TOKEN = '/v1/qc/oauth/token';
const FORM = 'application/x-www-form-urlencoded';

const credentials = () => ({
  grant_type: 'client_credentials',
  client_id: demo.client.client_id,
  client_secret: demo.client.client_secret,
});

/** The RFC 6749 5.1 and 5.2 cache headers of an answer. */
const cacheHeaders = (res: { headers: Headers }) => [res.headers.get('cache-control'), res.headers.get('pragma')];

/** The app over the same database, whose client look-up at the token endpoint fails with `failure`. */
function appFailingClientLookup(failure: () => Error) {
  const db: Db = interceptStatements(t.deps.db, (text) => {
    if (/from api_clients where client_id = \$ and kind = 'oauth'/.test(text)) throw failure();
  });
  const app = buildApp({ ...t.deps, db }, { operatorToken: OPERATOR_TOKEN });
  return async () => {
    const res = await app.handle(
      new Request(`http://localhost${TOKEN}`, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: new URLSearchParams(credentials()).toString(),
      }),
    );
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
}

const lostConnection = () =>
  Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });

describe('the token endpoint refusals the pipeline answers', () => {
  it('adds invalid_request to a body that fails the schema, keeping the validation envelope', async () => {
    const res = await t.request('POST', TOKEN, { body: { ...credentials(), grant_type: 123 } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(
      errorEnvelope('errors.validation_error', {
        detail: 'grant_type: must be a string.',
        errors: { grant_type: ['customer.oauth.messages.string'] },
        error: 'invalid_request',
      }),
    );
  });

  it('adds invalid_request to a JSON body that does not parse or is not an object', async () => {
    const malformed = await t.request('POST', TOKEN, { raw: '{"grant_type":' });
    expect([malformed.status, malformed.body.errors, malformed.body.error]).toEqual([
      422,
      { body: ['customer.oauth.messages.malformed'] },
      'invalid_request',
    ]);
    const list = await t.request('POST', TOKEN, { raw: '[1]' });
    expect([list.status, list.body.errors, list.body.error]).toEqual([
      422,
      { body: ['customer.oauth.messages.object'] },
      'invalid_request',
    ]);
  });

  it('adds invalid_request to 415, beside the media types the endpoint reads', async () => {
    for (const type of ['text/plain', 'application/xml']) {
      const res = await t.request('POST', TOKEN, {
        raw: 'grant_type=client_credentials',
        headers: { 'content-type': type },
      });
      expect([type, res.status, res.body.message, res.body.error, res.body.accepted_content_types]).toEqual([
        type,
        415,
        'errors.qc.unsupported_media_type',
        'invalid_request',
        [FORM, 'application/json'],
      ]);
    }
  });

  it('adds invalid_request to 413, beside the limit', async () => {
    const res = await t.request('POST', TOKEN, {
      raw: `scope=${'x'.repeat(9000)}`,
      headers: { 'content-type': FORM },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(
      errorEnvelope('errors.qc.payload_too_large', { limit_bytes: 8192, error: 'invalid_request' }),
    );
  });

  it('ignores parameters it does not know (RFC 6749 3.2): a token, not a refusal', async () => {
    const res = await t.request('POST', TOKEN, { form: { ...credentials(), audience: 'other', foo: 'bar' } });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });
});

describe('the token endpoint when we fail', () => {
  it('answers a lost database 503 temporarily_unavailable, with Retry-After and no-store', async () => {
    const res = await appFailingClientLookup(lostConnection)();
    expect(res.status).toBe(503);
    expect(res.body).toEqual(errorEnvelope('errors.service_unavailable', { error: 'temporarily_unavailable' }));
    expect(res.headers.get('retry-after')).toBe('2');
    expect(cacheHeaders(res)).toEqual(['no-store', 'no-cache']);
  });

  it('answers an unexpected failure 500 server_error, with its ticket and no-store', async () => {
    const res = await appFailingClientLookup(() => new Error('unexpected'))();
    expect(res.status).toBe(500);
    expect(res.body).toEqual(errorEnvelope('errors.internal_error', { error: 'server_error' }));
    expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
    expect(cacheHeaders(res)).toEqual(['no-store', 'no-cache']);
  });
});

describe('the cache headers of every token endpoint answer (RFC 6749 5.1, 5.2)', () => {
  it('sends Cache-Control: no-store and Pragma: no-cache on a token and on each refusal', async () => {
    const { grant_type: _, ...noGrant } = credentials();
    const answers: Record<string, Reply> = {
      token: await t.request('POST', TOKEN, { form: credentials() }),
      invalidClient: await t.request('POST', TOKEN, { form: { ...credentials(), client_secret: 'wrong' } }),
      invalidScope: await t.request('POST', TOKEN, { form: { ...credentials(), scope: 'nonsense.scope' } }),
      missingGrant: await t.request('POST', TOKEN, { form: noGrant }),
      schema: await t.request('POST', TOKEN, { body: { grant_type: 1 } }),
      tooLarge: await t.request('POST', TOKEN, { raw: `a=${'x'.repeat(9000)}`, headers: { 'content-type': FORM } }),
      mediaType: await t.request('POST', TOKEN, { raw: 'x', headers: { 'content-type': 'text/plain' } }),
    };
    const headers = Object.fromEntries(Object.entries(answers).map(([what, res]) => [what, cacheHeaders(res)]));
    expect(headers).toEqual(Object.fromEntries(Object.keys(answers).map((what) => [what, ['no-store', 'no-cache']])));
    // The partner API's other answers are not touched.
    const other = await t.request('GET', '/v1/qc/properties', { token: demo.personal_token });
    expect([other.status, ...cacheHeaders(other)]).toEqual([200, null, null]);
  });
});

describe('the token endpoint past its budget', () => {
  const limited = testAppPerFile({ rateLimits: 'enforce', clock: new ManualClock('2031-05-01T00:00:17Z') });
  const client = perFile(() => limited.demo());

  it('answers 429 in the envelope alone (no RFC 6749 code fits), with Retry-After and no-store', async () => {
    const { client_id, client_secret } = client.client;
    const form = { grant_type: 'client_credentials', client_id, client_secret };
    // Ten a minute to an address (spec 8.1): the eleventh is refused.
    for (let i = 0; i < 10; i++) expect((await limited.request('POST', TOKEN, { form })).status).toBe(200);
    const refused = await limited.request('POST', TOKEN, { form });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(errorEnvelope('errors.qc.rate_limit_exceeded'));
    expect(refused.headers.get('retry-after')).toBe('43');
    expect(cacheHeaders(refused)).toEqual(['no-store', 'no-cache']);
  });
});

describe('the OpenAPI operation of the token endpoint', () => {
  it('lists each status with the RFC 6749 code it answers, and the cache headers on every response', async () => {
    const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
    const responses = doc.paths[TOKEN].post.responses as Record<
      string,
      { headers: Record<string, unknown>; content: { 'application/json': { schema: any } } }
    >;
    const codes = (status: string) => {
      const own = responses[status]?.content['application/json'].schema.allOf?.[1]?.properties.error;
      return own ? (own.anyOf?.map((code: { const: string }) => code.const) ?? [own.const]) : [];
    };
    const answered = {
      '401': ['invalid_client'],
      '413': ['invalid_request'],
      '415': ['invalid_request'],
      '422': ['invalid_request', 'unsupported_grant_type', 'invalid_scope'],
      '429': [],
      '500': ['server_error'],
      '503': ['temporarily_unavailable'],
    };
    expect(Object.fromEntries(Object.keys(answered).map((status) => [status, codes(status)]))).toEqual(answered);
    const uncached = Object.entries(responses)
      .filter(([, res]) => !('Cache-Control' in res.headers && 'Pragma' in res.headers))
      .map(([status]) => status);
    expect(uncached).toEqual([]);
  });
});
