import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Demo } from '../../demo/demo.ts';
import { accessTokenAt } from '../../testing/access-token.ts';
import type { ServerProcess } from '../../testing/server-process.ts';
import { twoProcessesPerFile } from '../../testing/two-processes.ts';
import type { Db } from '../db/db.ts';
import { openPostgres } from '../db/postgres.ts';

/**
 * Two server processes (`bun server/main.ts`) cache who a token is (principal-cache.ts). A change to a
 * client, a property or a group, made through either process or straight in the database, must apply to
 * the next request in every process within one second (issue 17): the writing process at once, the other
 * on the commit notification (or, were it lost, when its entry ages out).
 */
const OPERATOR = 'principal-cache-test-operator-token';
const WITHIN_MS = 1000;

// Both processes on one PostgreSQL (LISTEN/NOTIFY): not on the embedded default, where each has its own.
describe.skipIf(!process.env.DATABASE_URL)('two server processes caching principals', () => {
  const two = twoProcessesPerFile(OPERATOR);
  let a: ServerProcess;
  let b: ServerProcess;
  let db: Db;
  let demo: Demo;

  beforeAll(() => {
    ({ a, b, demo } = two);
    db = openPostgres(process.env.DATABASE_URL as string, { max: 1, sessionUrl: process.env.DATABASE_SESSION_URL });
  });
  afterAll(async () => {
    await db?.close();
  });

  async function ops(server: ServerProcess, method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${server.url}/ops${path}`, {
      method,
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: unknown }).data;
  }

  const get = (server: ServerProcess, path: string, token: string) =>
    fetch(`${server.url}/v1/qc${path}`, { headers: { authorization: `Bearer ${token}` } });

  const listed = async (server: ServerProcess, token = demo.personal_token) => {
    const res = await get(server, '/properties', token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { properties: { id: string }[] } };
    return body.data.properties.map((p) => p.id);
  };

  /** Asks until `check` holds, for at most WITHIN_MS from now; answers whether it held. */
  async function within(check: () => Promise<boolean>): Promise<boolean> {
    const deadline = performance.now() + WITHIN_MS;
    for (;;) {
      if (await check()) return true;
      if (performance.now() > deadline) return false;
      await Bun.sleep(20);
    }
  }

  async function oauthClient(scopes: string[]): Promise<{ client_id: string; token: string }> {
    const client = await ops(a, 'POST', '/clients', { customer_id: demo.customer_id, scopes, account_scoped: true });
    return { client_id: client.client_id, token: await accessTokenAt(a.url, client) };
  }

  it('a revoked client is refused by the process that revoked it at once, and by the other within a second', async () => {
    const client = await oauthClient(['inventory.read']);
    for (const server of [a, b, a, b]) expect((await get(server, '/properties', client.token)).status).toBe(200);

    await ops(a, 'POST', `/clients/${client.client_id}/revoke`);
    expect((await get(a, '/properties', client.token)).status).toBe(401);
    expect(await within(async () => (await get(b, '/properties', client.token)).status === 401)).toBe(true);
  });

  it('a scope removed in the database is refused by both processes within a second', async () => {
    const client = await oauthClient(['inventory.read']);
    const path = `/properties/${demo.properties[0]?.id}/room_types`;
    for (const server of [a, b, a, b]) expect((await get(server, path, client.token)).status).toBe(200);

    await db.sql`update api_clients set scopes = '{}' where client_id = ${client.client_id}`;
    for (const server of [a, b]) {
      expect(await within(async () => (await get(server, path, client.token)).status === 403)).toBe(true);
    }
  });

  it('a disabled property leaves the allow-list of both processes', async () => {
    const property = demo.properties[0]?.id as string;
    for (const server of [a, b, a, b]) expect(await listed(server)).toContain(property);

    await ops(b, 'PUT', `/properties/${property}/status`, { status: 'disabled' });
    expect(await listed(b)).not.toContain(property);
    expect(await within(async () => !(await listed(a)).includes(property))).toBe(true);

    await ops(a, 'PUT', `/properties/${property}/status`, { status: 'active' });
    expect(await listed(a)).toContain(property);
    expect(await within(async () => (await listed(b)).includes(property))).toBe(true);
  });

  it('a paused group takes its properties out of both processes, a new property comes in', async () => {
    const group = await ops(a, 'POST', '/property-groups', { customer_id: demo.customer_id, name: 'Paused later' });
    const created = await ops(a, 'POST', '/properties', {
      customer_id: demo.customer_id,
      name: 'Grouped Hotel',
      currency: 'EUR',
      timezone: 'Europe/Lisbon',
      group_id: group.id,
    });
    expect(await listed(a)).toContain(created.id);
    expect(await within(async () => (await listed(b)).includes(created.id))).toBe(true);

    await db.sql`update property_groups set paused = true where id = ${group.id}`;
    for (const server of [a, b]) {
      expect(await within(async () => !(await listed(server)).includes(created.id))).toBe(true);
    }
  });
});
