import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

/** The three independent checks of spec 5.3 (scope, property allow-list, endpoint allow-list) and 5.5 modes. */
let live: string;
let shadow: string;

const t = testAppPerFile();
const demo = perFile(() => t.demo());
beforeAll(async () => {
  live = demo.properties[0]?.external_property_id as string;
  shadow = demo.properties[1]?.external_property_id as string;
});

const ids = (res: { body: { data: { properties: { id: string }[] } } }) =>
  res.body.data.properties.map((p) => p.id).sort();

describe('property allow-list', () => {
  it('answers a property outside the allow-list exactly like a missing one (404 errors.not_found)', async () => {
    const c = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [live] });
    const outside = await t.request('GET', `/v1/qc/properties/${shadow}`, { token: c.token });
    const missing = await t.request('GET', '/v1/qc/properties/00000000-0000-4000-8000-000000000000', {
      token: c.token,
    });
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual(errorEnvelope('errors.not_found'));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(outside.body);
    expect(ids(await t.request('GET', '/v1/qc/properties', { token: c.token }))).toEqual([live]);
  });

  it('never crosses customers, even for an account-scoped token', async () => {
    const other = await t.demo();
    const res = await t.request('GET', `/v1/qc/properties/${other.properties[0]?.external_property_id}`, {
      token: demo.personal_token,
    });
    expect(res.status).toBe(404);
    const byCode = await t.request('GET', `/v1/qc/properties/${other.properties[0]?.partner_code}`, {
      token: demo.personal_token,
    });
    expect(byCode.status).toBe(404);
  });

  it('resolves a partner code like the external id', async () => {
    const byId = await t.request('GET', `/v1/qc/properties/${live}`, { token: demo.personal_token });
    const byCode = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.partner_code}`, {
      token: demo.personal_token,
    });
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toEqual(byId.body.data);
  });

  it('denies everything for an explicit empty property_ids on a fixed credential', async () => {
    const c = await t.client({ customer_id: demo.customer_id, scopes: ['inventory.read'], property_ids: [] });
    expect(ids(await t.request('GET', '/v1/qc/properties', { token: c.token }))).toEqual([]);
    expect((await t.request('GET', `/v1/qc/properties/${live}`, { token: c.token })).status).toBe(404);
  });

  it('resolves an account-scoped allow-list live: new properties appear, disabled ones and paused groups drop out', async () => {
    const fresh = await t.demo();
    const token = fresh.personal_token;
    const before = ids(await t.request('GET', '/v1/qc/properties', { token }));
    expect(before).toEqual(fresh.properties.map((p) => p.external_property_id).sort());

    const group = (await t.ops('POST', '/ops/property-groups', { customer_id: fresh.customer_id, name: 'North' })).body
      .data;
    const added = (
      await t.ops('POST', '/ops/properties', {
        customer_id: fresh.customer_id,
        name: 'New Inn',
        currency: 'EUR',
        timezone: 'Europe/Berlin',
        group_id: group.id,
      })
    ).body.data;
    expect(ids(await t.request('GET', '/v1/qc/properties', { token }))).toContain(added.id);

    await t.ops('PUT', `/ops/property-groups/${group.id}/paused`, { paused: true });
    expect(ids(await t.request('GET', '/v1/qc/properties', { token }))).not.toContain(added.id);
    await t.ops('PUT', `/ops/property-groups/${group.id}/paused`, { paused: false });
    expect(ids(await t.request('GET', '/v1/qc/properties', { token }))).toContain(added.id);

    const first = fresh.properties[0]?.external_property_id as string;
    await t.ops('PUT', `/ops/properties/${first}/status`, { status: 'disabled' });
    expect(ids(await t.request('GET', '/v1/qc/properties', { token }))).not.toContain(first);
    expect((await t.request('GET', `/v1/qc/properties/${first}`, { token })).status).toBe(404);
  });

  it('keeps a fixed allow-list frozen: a later-enrolled property is not visible', async () => {
    const fresh = await t.demo();
    const c = await t.client({
      customer_id: fresh.customer_id,
      scopes: ['inventory.read'],
      property_ids: fresh.properties.map((p) => p.external_property_id),
    });
    const added = (
      await t.ops('POST', '/ops/properties', {
        customer_id: fresh.customer_id,
        name: 'Later Inn',
        currency: 'EUR',
        timezone: 'Europe/Berlin',
      })
    ).body.data;
    expect(ids(await t.request('GET', '/v1/qc/properties', { token: c.token }))).not.toContain(added.id);
  });
});

describe('endpoint allow-list', () => {
  it('blocks a route not on the list with 403 errors.qc.endpoint_not_allowed while the scope is fine', async () => {
    const c = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [live],
      endpoint_scopes: ['qc.room_types.list'],
    });
    expect((await t.request('GET', `/v1/qc/properties/${live}/room_types`, { token: c.token })).status).toBe(200);
    const blocked = await t.request('GET', `/v1/qc/properties/${live}/rate_plans`, { token: c.token });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual(errorEnvelope('errors.qc.endpoint_not_allowed'));
  });

  it('never narrows the routes that need no scope: a room-types-only token still lists its properties first', async () => {
    const c = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [live],
      endpoint_scopes: ['qc.room_types.*'],
    });
    for (const path of ['/v1/qc/properties', `/v1/qc/properties/${live}`, '/v1/qc/permissions', '/v1/qc/changelog'])
      expect([path, (await t.request('GET', path, { token: c.token })).status]).toEqual([path, 200]);
    expect((await t.request('GET', `/v1/qc/properties/${live}/room_types`, { token: c.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/qc/properties/${live}/rate_plans`, { token: c.token })).status).toBe(403);
  });

  it('matches qc.<resource>.* wildcards by prefix including the dot', async () => {
    const c = await t.client({
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [live],
      endpoint_scopes: ['qc.properties.*'],
    });
    expect((await t.request('GET', '/v1/qc/properties', { token: c.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/qc/properties/${live}`, { token: c.token })).status).toBe(200);
    expect((await t.request('GET', `/v1/qc/properties/${live}/room_types`, { token: c.token })).status).toBe(403);
  });

  it('runs the scope check first: a listed route without its scope is insufficient_scope', async () => {
    const c = await t.client({
      customer_id: demo.customer_id,
      scopes: ['bookings.read'],
      property_ids: [live],
      endpoint_scopes: ['qc.room_types.list'],
    });
    const res = await t.request('GET', `/v1/qc/properties/${live}/room_types`, { token: c.token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('errors.qc.insufficient_scope');
  });

  it('rejects unknown route names at creation', async () => {
    const res = await t.ops('POST', '/ops/clients', {
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      endpoint_scopes: ['qc.nonsense.read'],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.endpoint_scopes).toEqual(['customer.client.messages.unknown_endpoint']);
    const wildcard = await t.ops('POST', '/ops/clients', {
      customer_id: demo.customer_id,
      scopes: ['inventory.read'],
      endpoint_scopes: ['qc.nonsense.*'],
    });
    expect(wildcard.status).toBe(422);
  });

  it('refuses a wildcard wider than one resource (qc.*, qc.*.*) like an unknown name, for clients and tokens', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    for (const entry of ['qc.*', 'qc.*.*', '*', 'qc.bookings.list.*']) {
      const client = await t.ops('POST', '/ops/clients', {
        customer_id: demo.customer_id,
        scopes: ['inventory.read'],
        endpoint_scopes: [entry],
      });
      expect(client.status).toBe(422);
      expect(client.body.errors).toEqual({ endpoint_scopes: ['customer.client.messages.unknown_endpoint'] });
      const token = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
        token: session,
        body: { name: 'x', scopes: ['inventory.read'], endpoint_scopes: [entry] },
      });
      expect(token.status).toBe(422);
      expect(token.body.errors).toEqual({ endpoint_scopes: ['customer.api_token.messages.unknown_endpoint'] });
    }
    const [made] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from api_clients
      where customer_id = ${demo.customer_id} and (${'qc.*'} = any(endpoint_scopes) or ${'*'} = any(endpoint_scopes))`;
    expect(made?.n).toBe(0);
  });
});

describe('personal API tokens', () => {
  it('mints a qc_ token once through the dashboard endpoint and the token works', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const res = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: session,
      body: {
        name: 'night audit',
        scopes: ['inventory.read'],
        account_scoped: false,
        property_ids: [live],
        endpoint_scopes: [],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.token).toMatch(/^qc_/);
    expect(res.body.data.account_scoped).toBe(false);
    const list = await t.request('GET', '/v1/qc/properties', { token: res.body.data.token });
    expect(ids(list)).toEqual([live]);
    const stored = await t.deps.db.sql<{
      secret_hash: string;
    }>`select secret_hash from api_clients where client_id = ${res.body.data.id}`;
    expect(stored[0]?.secret_hash).not.toContain(res.body.data.token);
    expect(stored[0]?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('echoes account_scoped and ignores property_ids for account-scoped tokens', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const res = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: session,
      body: { name: 'all', scopes: ['inventory.read'], account_scoped: true, property_ids: [live] },
    });
    expect(res.body.data.account_scoped).toBe(true);
    expect(res.body.data.property_ids).toEqual([]);
    expect(ids(await t.request('GET', '/v1/qc/properties', { token: res.body.data.token })).length).toBe(2);
  });

  it('refuses minting without a dashboard session, and with a partner token', async () => {
    const body = { name: 'x', scopes: ['inventory.read'] };
    expect((await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', { body })).status).toBe(401);
    const partner = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    expect((await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', { body, token: partner })).status).toBe(401);
  });

  it('validates endpoint_scopes against the live route catalogue', async () => {
    const session = await t.dashboardSession(demo.customer_id);
    const res = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: session,
      body: { name: 'x', scopes: ['inventory.read'], endpoint_scopes: ['qc.unknown.thing'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.endpoint_scopes).toEqual(['customer.api_token.messages.unknown_endpoint']);
  });
});
