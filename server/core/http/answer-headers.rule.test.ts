import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

/**
 * Issue 28 item 3: GET /openapi.yaml answered without X-Qc-Request-Id and X-RateLimit-*, and a router 404
 * carried an undocumented bucket `unmatched` while the README said it carried none. One rule for every answer
 * under /v1/qc: the request id and the four rate-limit headers; what names no operation spends `public`.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-bucket'];

describe('the headers of every answer under /v1/qc', () => {
  it('carries the request id and the rate-limit headers on operations, documents, the docs page and unknown paths', async () => {
    const answers = {
      operation: await t.request('GET', '/v1/qc/properties', { token: demo.personal_token }),
      refused: await t.request('GET', '/v1/qc/properties'),
      json: await t.request('GET', '/v1/qc/openapi.json'),
      yaml: await t.request('GET', '/v1/qc/openapi.yaml'),
      docs: await t.request('GET', '/v1/qc/docs'),
      unknown: await t.request('GET', '/v1/qc/no-such-route'),
    };
    const missing = Object.entries(answers).flatMap(([what, res]) =>
      ['x-qc-request-id', ...RATE_HEADERS].filter((h) => !res.headers.get(h)).map((h) => `${what}: ${h}`),
    );
    expect(missing).toEqual([]);
    const buckets = Object.fromEntries(
      Object.entries(answers).map(([what, res]) => [what, res.headers.get('x-ratelimit-bucket')]),
    );
    expect(buckets).toEqual({
      operation: 'reads',
      refused: 'reads',
      json: 'public',
      yaml: 'public',
      docs: 'public',
      unknown: 'public',
    });
    expect(answers.unknown.status).toBe(404);
    expect(answers.yaml.headers.get('x-ratelimit-limit')).toBe('60');
  });
});
