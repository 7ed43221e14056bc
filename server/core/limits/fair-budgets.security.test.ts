import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import { loopbackAddress, requestFrom } from '../../testing/from-address.ts';
import { startServedTestApp } from '../../testing/harness.ts';
import { TOKEN_FAILURES_PER_CLIENT } from './rate-limit.ts';

/**
 * Issue 25 N5: 300 wrong secrets for B's client_id from 250 addresses gave 9 x 401, then 291 x 429, and B's real
 * secret from a fresh address got 429: anyone who saw a client_id (it is in every token) could stop that client
 * getting tokens. Wrong secrets now spend their address's budget and the client's failure budget, never the
 * client's own, so the right secret gets its token; nothing a stranger sends spends a credential's budget.
 */
let served: Awaited<ReturnType<typeof startServedTestApp>>;
let demo: Demo;

beforeAll(async () => {
  served = await startServedTestApp({ rateLimits: 'enforce' });
  demo = await served.t.demo();
});
afterAll(() => served.stop());

const tokenRequest = (address: string, client_id: string, client_secret: string) =>
  requestFrom(served.baseUrl, address, 'POST', '/v1/qc/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id, client_secret }).toString(),
  });

describe('budgets a stranger can reach', () => {
  it('keeps giving the real secret its token while wrong secrets for its client_id pour in from 250 addresses', async () => {
    const { client_id, client_secret } = demo.client;
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++)
      statuses.push((await tokenRequest(loopbackAddress(i % 250), client_id, `wrong-${i}`)).status);
    // The client's failure budget bounds the guessing, whatever the addresses.
    expect(statuses.filter((s) => s === 401)).toHaveLength(TOKEN_FAILURES_PER_CLIENT.perMinute);
    expect(statuses.filter((s) => s === 429)).toHaveLength(300 - TOKEN_FAILURES_PER_CLIENT.perMinute);
    // From a fresh address, and from one whose own budget the guesses spent.
    const fresh = await tokenRequest('127.0.9.9', client_id, client_secret);
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe('9');
    for (let i = 0; i < 12; i++) await tokenRequest('127.0.9.10', client_id, 'wrong');
    expect((await tokenRequest('127.0.9.10', client_id, 'wrong')).status).toBe(429);
    expect((await tokenRequest('127.0.9.10', client_id, client_secret)).status).toBe(200);
  });

  it('never spends a personal token owner budget for tokens that do not authenticate', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await requestFrom(served.baseUrl, loopbackAddress(i), 'GET', '/v1/qc/properties', {
        headers: { authorization: `Bearer ${demo.personal_token}x${i}` },
      });
      expect(res.status).toBe(401);
    }
    const own = await requestFrom(served.baseUrl, '127.0.9.11', 'GET', '/v1/qc/properties', {
      headers: { authorization: `Bearer ${demo.personal_token}` },
    });
    expect([own.status, own.headers['x-ratelimit-remaining']]).toEqual([200, '299']);
  });
});
