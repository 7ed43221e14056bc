import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../server/demo/demo.ts';
import { startServedTestApp, type TestApp } from '../server/testing/harness.ts';
import { firstHour } from './example.ts';
import { createQcClient } from './index.ts';

let t: TestApp;
let demo: Demo;
let baseUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  // A real server on a loopback port: the client goes through fetch and HTTP like a partner's would.
  ({ t, baseUrl, stop } = await startServedTestApp());
  demo = await t.demo();
});
afterAll(() => stop());

describe('the typed client (client/)', () => {
  it('runs the first-hour example: token, price pushed, one revision acknowledged and the rest left in the feed', async () => {
    const lines: string[] = [];
    const result = await firstHour(
      baseUrl,
      { clientId: demo.client.client_id, clientSecret: demo.client.client_secret },
      (line) => lines.push(line),
    );
    expect(result.pushed).toEqual({ written: 1, dry: false });
    expect(result.acknowledged).toEqual(expect.any(Number));
    expect(result.waiting).toBeGreaterThan(0);
    expect(lines.at(-1)).toContain(`acknowledged revision ${result.acknowledged}; ${result.waiting} more left`);

    // Issue 28 item 17: the example acked the whole demo feed, so the README's feed step then showed nothing.
    // The acked revision does not come back to this consumer (acks are per credential); the others still do.
    const qc = createQcClient(baseUrl, { clientId: demo.client.client_id, clientSecret: demo.client.client_secret });
    const feed = await qc.GET('/v1/qc/booking_revisions/feed', { params: { query: { since: '0' } } });
    const ids = feed.data?.data.booking_revisions.map((r) => r.id) ?? [];
    expect(ids).not.toContain(result.acknowledged as number);
    expect(ids.length).toBe(result.waiting);
  });

  it('answers errors typed with their key and detail, and refetches a token after a 401', async () => {
    const qc = createQcClient(baseUrl, { token: 'qc_not_a_token' });
    const refused = await qc.GET('/v1/qc/properties');
    expect(refused.response.status).toBe(401);
    expect(refused.error?.message).toBe('errors.unauthorized');
    expect(refused.error?.detail).toContain('get a new token');

    const wrong = createQcClient(baseUrl, { clientId: demo.client.client_id, clientSecret: 'wrong' });
    await expect(wrong.GET('/v1/qc/properties')).rejects.toThrow('token request answered 401');
  });
});
