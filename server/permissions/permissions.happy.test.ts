import { describe, expect, it } from 'bun:test';
import { routeCatalogue as routeList } from '../route-table.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';
import { customerFixture } from '../testing/test-customer.ts';

const t = testAppPerFile();
const customer = perFile(() => customerFixture(t.deps));

describe('GET /v1/qc/permissions', () => {
  it('lists every route of the table sorted by name, with methods, uri, scope and bucket, for any valid token', async () => {
    const c = await t.client({ customer_id: customer.customerId, scopes: [], property_ids: [] });
    const res = await t.request('GET', '/v1/qc/permissions', { token: c.token });
    expect(res.status).toBe(200);
    const endpoints = res.body.data.endpoints as {
      name: string;
      methods: string[];
      uri: string;
      scope: string[];
      bucket: string;
    }[];
    const names = endpoints.map((e) => e.name);
    // Code-point order, whatever the machine's collation: '.' (0x2E) sorts before '_' (0x5F).
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names.indexOf('qc.catalogue.replace')).toBeLessThan(names.indexOf('qc.catalogue_sync.create'));
    expect(new Set(names)).toEqual(new Set(routeList.map((r) => r.name)));
    expect(endpoints.find((e) => e.name === 'qc.inventory.rates')).toEqual({
      name: 'qc.inventory.rates',
      methods: ['POST'],
      uri: '/v1/qc/properties/{property}/inventory/rates',
      scope: ['inventory.write'],
      bucket: 'inventory-writes',
    });
  });

  it("names each operation's rate-limit bucket as its X-RateLimit-Bucket header does", async () => {
    const res = await t.request('GET', '/v1/qc/permissions', { token: customer.token });
    const endpoints = res.body.data.endpoints as { name: string; bucket: string }[];
    const bucketOf = Object.fromEntries(endpoints.map((e) => [e.name, e.bucket]));
    // One bucket per name: the entry groups a name's methods.
    expect(bucketOf).toEqual(Object.fromEntries(routeList.map((r) => [r.name, r.bucket])));
    expect(bucketOf['qc.permissions.list']).toBe(res.headers.get('x-ratelimit-bucket') as string);
    const properties = await t.request('POST', '/v1/qc/properties', { token: customer.token, body: {} });
    expect(bucketOf['qc.properties.create']).toBe(properties.headers.get('x-ratelimit-bucket') as string);
    expect(new Set(Object.values(bucketOf))).toEqual(
      new Set(['reads', 'config-writes', 'inventory-writes', 'booking-actions', 'token']),
    );
  });

  it('summarises resources with their wildcard and endpoint count', async () => {
    const res = await t.request('GET', '/v1/qc/permissions', { token: customer.token });
    const resources = res.body.data.resources as { resource: string; wildcard: string; endpoint_count: number }[];
    const props = resources.find((r) => r.resource === 'properties');
    expect(props?.wildcard).toBe('qc.properties.*');
    expect(props?.endpoint_count).toBe(routeList.filter((r) => r.name.startsWith('qc.properties.')).length);
  });
});
