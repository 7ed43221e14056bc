import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { CLIENT_SECRET_OVERLAP_HOURS } from './client-secret.ts';

const HOUR = 3600_000;

const t = testAppPerFile();
const demo = perFile(() => t.demo());

function tokenRequest(clientId: string, secret: string) {
  return t.request('POST', '/v1/qc/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
  });
}

async function newClient() {
  return t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
}

describe('OAuth client secret rotation', () => {
  it('shows the new secret once from the dashboard; the old one gets tokens until the overlap ends', async () => {
    const client = await newClient();
    const rotatedAt = t.clock.now();
    const res = await t.request('POST', `/api/v1/pem-systems/qc/clients/${client.client_id}/rotate-secret`, {
      token: await t.dashboardSession(demo.customer_id),
    });
    expect(res.status).toBe(200);
    const rotated = res.body.data;
    expect(rotated).toEqual({
      client_id: client.client_id,
      client_secret: expect.stringMatching(/^qcs_/),
      secret_rotated_at: rotatedAt.toISOString(),
      previous_secret_expires_at: new Date(rotatedAt.getTime() + CLIENT_SECRET_OVERLAP_HOURS * HOUR).toISOString(),
    });
    expect(rotated.client_secret).not.toBe(client.client_secret);

    // Both secrets work during the overlap, and a token from either authenticates.
    for (const secret of [rotated.client_secret, client.client_secret]) {
      const token = await tokenRequest(client.client_id, secret);
      expect(token.status).toBe(200);
      const properties = await t.request('GET', '/v1/qc/properties', { token: token.body.access_token });
      expect(properties.status).toBe(200);
    }

    t.clock.advance(CLIENT_SECRET_OVERLAP_HOURS * HOUR - 1000);
    expect((await tokenRequest(client.client_id, client.client_secret)).status).toBe(200);
    t.clock.advance(1000);
    const expired = await tokenRequest(client.client_id, client.client_secret);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('errors.qc.invalid_client');
    expect((await tokenRequest(client.client_id, rotated.client_secret)).status).toBe(200);
  });

  it('ends the older secret at once when rotated again inside the overlap', async () => {
    const client = await newClient();
    const first = (await t.ops('POST', `/ops/clients/${client.client_id}/rotate-secret`)).body.data;
    const second = await t.ops('POST', `/ops/clients/${client.client_id}/rotate-secret`);
    expect(second.status).toBe(200);
    expect((await tokenRequest(client.client_id, client.client_secret)).status).toBe(401);
    expect((await tokenRequest(client.client_id, first.client_secret)).status).toBe(200);
    expect((await tokenRequest(client.client_id, second.body.data.client_secret)).status).toBe(200);
  });

  it('lets the operator rotate any customer client with the same overlap', async () => {
    const client = await newClient();
    const res = await t.ops('POST', `/ops/clients/${client.client_id}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(res.body.data.previous_secret_expires_at).toBe(
      new Date(t.clock.now().getTime() + CLIENT_SECRET_OVERLAP_HOURS * HOUR).toISOString(),
    );
    expect((await tokenRequest(client.client_id, res.body.data.client_secret)).status).toBe(200);
    expect((await tokenRequest(client.client_id, client.client_secret)).status).toBe(200);
    t.clock.advance(CLIENT_SECRET_OVERLAP_HOURS * HOUR);
    expect((await tokenRequest(client.client_id, client.client_secret)).status).toBe(401);
  });
});

const rotatePath = (clientId: string) => `/api/v1/pem-systems/qc/clients/${clientId}/rotate-secret`;

describe('OAuth client secret rotation refusals', () => {
  it("answers 404 for another customer's client, a revoked one and a personal token, and rotates nothing", async () => {
    const other = await t.demo();
    const theirs = await t.client({ customer_id: other.customer_id, scopes: ['inventory.read'], account_scoped: true });
    const mine = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
    await t.ops('POST', `/ops/clients/${mine.client_id}/revoke`);
    const session = await t.dashboardSession(demo.customer_id);
    const personal = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: session,
      body: { name: 'ci', scopes: ['inventory.read'], account_scoped: true },
    });
    for (const id of [theirs.client_id, mine.client_id, personal.body.data.id, 'qcc_nope']) {
      const res = await t.request('POST', rotatePath(id), { token: session });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    }
    const token = await t.request('POST', '/v1/qc/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: theirs.client_id, client_secret: theirs.client_secret },
    });
    expect(token.status).toBe(200);
    expect((await t.ops('POST', '/ops/clients/qcc_nope/rotate-secret')).status).toBe(404);
  });

  it('needs a dashboard session, and the operator token on the operator route', async () => {
    const client = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], account_scoped: true });
    const anonymous = await t.request('POST', rotatePath(client.client_id));
    expect(anonymous.status).toBe(401);
    const partnerToken = await t.request('POST', rotatePath(client.client_id), { token: client.token });
    expect(partnerToken.status).toBe(401);
    const ops = await t.request('POST', `/ops/clients/${client.client_id}/rotate-secret`, { token: client.token });
    expect(ops.status).toBe(401);
  });
});
