import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';

let session: string;
const TOKENS = '/api/v1/pem-systems/qc/api-tokens';

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  session = await t.dashboardSession(demo.customer_id);
});

async function mint(name: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', TOKENS, {
    token: session,
    body: { name, scopes: ['inventory.read'], account_scoped: true, ...body },
  });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; token: string };
}

describe('personal API tokens in the dashboard', () => {
  it('lists the customer tokens newest first with meta, never the token itself', async () => {
    const first = await mint('first');
    t.clock.advance(1000);
    const second = await mint('second', { account_scoped: false, property_ids: [demo.properties[0]?.id] });
    const res = await t.request('GET', TOKENS, { token: session });
    expect(res.status).toBe(200);
    const ids = res.body.data.api_tokens.map((x: { id: string }) => x.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body.data.api_tokens[0]).toEqual({
      id: second.id,
      name: 'second',
      scopes: ['inventory.read'],
      account_scoped: false,
      property_ids: [demo.properties[0]?.id],
      endpoint_scopes: [],
      created_at: expect.any(String),
      revoked_at: null,
    });
    expect(res.text).not.toContain(second.token);
    expect(res.body.data.meta).toEqual({ total: ids.length, page: 1, per_page: 200, last_page: 1 });
    const paged = await t.request('GET', TOKENS, { token: session, query: { per_page: 1, page: 2 } });
    expect(paged.body.data.api_tokens.map((x: { id: string }) => x.id)).toEqual([ids[1]]);
  });

  it('revokes a token: it stops authenticating at once, and revoking again keeps the first time', async () => {
    const minted = await mint('to revoke');
    expect((await t.request('GET', '/v1/qc/properties', { token: minted.token })).status).toBe(200);
    const res = await t.request('DELETE', `${TOKENS}/${minted.id}`, { token: session });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: minted.id, revoked_at: t.clock.now().toISOString() });
    const refused = await t.request('GET', '/v1/qc/properties', { token: minted.token });
    expect(refused.status).toBe(401);
    t.clock.advance(5000);
    const again = await t.request('DELETE', `${TOKENS}/${minted.id}`, { token: session });
    expect(again.body.data.revoked_at).toBe(res.body.data.revoked_at);
    const listed = await t.request('GET', TOKENS, { token: session });
    const entry = listed.body.data.api_tokens.find((x: { id: string }) => x.id === minted.id);
    expect(entry.revoked_at).toBe(res.body.data.revoked_at);
  });

  it("cannot see or revoke another customer's token, nor an OAuth client", async () => {
    const other = await t.demo();
    const theirSession = await t.dashboardSession(other.customer_id);
    const mine = await mint('mine');
    const theirList = await t.request('GET', TOKENS, { token: theirSession });
    expect(theirList.body.data.api_tokens.map((x: { id: string }) => x.id)).not.toContain(mine.id);
    const theirRevoke = await t.request('DELETE', `${TOKENS}/${mine.id}`, { token: theirSession });
    expect(theirRevoke.status).toBe(404);
    expect((await t.request('GET', '/v1/qc/properties', { token: mine.token })).status).toBe(200);
    const client = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
    expect((await t.request('DELETE', `${TOKENS}/${client.client_id}`, { token: session })).status).toBe(404);
    expect((await t.request('GET', TOKENS)).status).toBe(401);
    expect((await t.request('DELETE', `${TOKENS}/${mine.id}`)).status).toBe(401);
  });
});
