import { afterEach, beforeEach, describe, expect, it } from 'bun:test';
import { buildApp } from '../../app.ts';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../../testing/harness.ts';
import { interceptStatements } from '../../testing/intercept-statements.ts';
import { customerFixture } from '../../testing/test-customer.ts';
import type { Log, LogFields } from '../log.ts';

/**
 * Every answer has its request log line and its count in qc_http_requests_total (docs/operations.md, "Health, logs,
 * shutdown" and "Metrics"). Two kinds had neither: a path no route serves (its 404 quoted a ticket found nowhere,
 * and `route="unmatched"` never appeared) and the operator surfaces (minting a credential left no trace).
 */
const t = testAppPerFile();
const fx = perFile(() => customerFixture(t.deps));
const lines: LogFields[] = [];
let original: Log;

beforeEach(() => {
  original = t.deps.log;
  const keep = (msg: string, fields?: LogFields) => {
    if (msg === 'request' && fields) lines.push(fields);
  };
  (t.deps as { log: Log }).log = { info: keep, warn: original.warn, error: original.error };
});

afterEach(() => {
  (t.deps as { log: Log }).log = original;
  lines.length = 0;
});

const lineOf = (res: { headers: Headers }) => lines.find((l) => l.request_id === res.headers.get('x-qc-request-id'));

/** qc_http_requests_total summed over the series with these labels, read through GET /metrics. */
async function counted(labels: Record<string, string>): Promise<number> {
  const text = (await t.request('GET', '/metrics', { token: OPERATOR_TOKEN })).text;
  let sum = 0;
  for (const m of text.matchAll(/^qc_http_requests_total\{([^}]*)\} (\d+)$/gm)) {
    const found = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(m[2]);
  }
  return sum;
}

describe('a path no route serves', () => {
  it('is counted under route "unmatched" and logged with its ticket, yet stores no incident', async () => {
    const before = await counted({ route: 'unmatched', status: '404' });
    const withToken = { path: '/v1/qc/nope', res: await t.request('GET', '/v1/qc/nope', { token: fx.token }) };
    const anonymous = { path: '/nothing-here', res: await t.request('GET', '/nothing-here') };
    for (const { path, res } of [withToken, anonymous]) {
      expect(res.status).toBe(404);
      const ticket = res.headers.get('x-qc-support-ticket');
      expect(ticket).toMatch(/^QC-/);
      expect(lineOf(res)).toMatchObject({ status: 404, ticket, path });
      expect(lineOf(res)?.route).toBeUndefined();
      // A scanner must not fill the incidents table: the ticket is in the log only.
      expect((await t.ops('GET', `/ops/incidents/${ticket}`)).status).toBe(404);
    }
    expect((await counted({ route: 'unmatched', status: '404' })) - before).toBe(2);
  });
});

describe('the client on the line of a path no route serves', () => {
  it("is the bearer's client when valid, as on its routes' lines: a wrong path, a wrong method, an OAuth token", async () => {
    const onRoute = await t.request('GET', '/v1/qc/properties', { token: fx.token });
    const personal = lineOf(onRoute)?.client_id;
    expect(typeof personal).toBe('string');
    const oauth = await t.client({ customer_id: fx.customerId, scopes: ['inventory.read'], property_ids: [] });
    const answers = [
      { client: personal, res: await t.request('GET', '/v1/qc/propertes', { token: fx.token }) },
      { client: personal, res: await t.request('DELETE', '/v1/qc/properties', { token: fx.token }) },
      { client: oauth.client_id, res: await t.request('POST', '/v1/qc/no-such-thing', { token: oauth.token }) },
    ];
    for (const { client, res } of answers) {
      expect(res.status).toBe(404);
      expect(lineOf(res)).toMatchObject({ status: 404, client_id: client });
    }
  });

  it('is none for a missing, invalid or revoked bearer, and the answer stays the 404', async () => {
    const revoked = await t.client({ customer_id: fx.customerId, scopes: ['inventory.read'], property_ids: [] });
    expect((await t.ops('POST', `/ops/clients/${revoked.client_id}/revoke`)).status).toBe(200);
    const answers = [
      await t.request('GET', '/v1/qc/nope'),
      await t.request('GET', '/v1/qc/nope', { token: 'not-a-token' }),
      await t.request('GET', '/v1/qc/nope', { token: 'qc_not-a-real-token' }),
      await t.request('GET', '/v1/qc/nope', { token: revoked.token }),
      await t.request('GET', '/v1/qc/nope', { headers: { authorization: 'Basic Zm9vOmJhcg==' } }),
    ];
    for (const res of answers) {
      expect([res.status, res.body.message]).toEqual([404, 'errors.not_found']);
      expect(lineOf(res)).toMatchObject({ status: 404 });
      expect(lineOf(res)?.client_id).toBeUndefined();
    }
  });

  it('costs no database read once the principal cache holds the client, as on a route', async () => {
    let clientReads = 0;
    const counted = interceptStatements(t.deps.db, (text) => {
      if (/\bfrom api_clients c\b/.test(text)) clientReads++;
    });
    const app = buildApp({ ...t.deps, db: counted }, { operatorToken: OPERATOR_TOKEN });
    const send = (path: string) =>
      app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${fx.token}` } }));
    // Until the cache's LISTEN is in place every request reads the client row: ask until one does not.
    let onRoute: Response | undefined;
    for (let i = 0; i < 50; i++) {
      const before = clientReads;
      onRoute = await send('/v1/qc/properties');
      expect(onRoute.status).toBe(200);
      if (clientReads === before) break;
      await Bun.sleep(20);
    }
    const cached = clientReads;
    const wrong = await send('/v1/qc/propertes');
    expect(wrong.status).toBe(404);
    expect(clientReads).toBe(cached);
    expect(lineOf(wrong)?.client_id).toBe(lineOf(onRoute as Response)?.client_id as string);
    expect(typeof lineOf(wrong)?.client_id).toBe('string');
  });
});

describe('the operator surfaces', () => {
  it('log and count POST /ops/customers under its route name, naming the operator and never the token', async () => {
    const before = await counted({ route: 'ops.customers.create', method: 'POST', status: '200' });
    const created = await t.ops('POST', '/ops/customers', { name: 'Logged customer' });
    expect(created.status).toBe(200);
    const line = lineOf(created);
    expect(line).toMatchObject({ route: 'ops.customers.create', method: 'POST', status: 200, client_id: 'operator' });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain(OPERATOR_TOKEN);
    expect(JSON.stringify(line)).not.toContain('Logged customer');
    expect((await counted({ route: 'ops.customers.create', method: 'POST', status: '200' })) - before).toBe(1);
  });

  it('log a refused operator call under its route name, its ticket and no caller', async () => {
    const refused = await t.request('POST', '/ops/customers', { token: 'not-the-operator-token', body: { name: 'x' } });
    expect(refused.status).toBe(401);
    const line = lineOf(refused);
    expect(line).toMatchObject({ route: 'ops.customers.create', status: 401 });
    expect(line?.ticket).toBe(refused.headers.get('x-qc-support-ticket') as string);
    expect(line?.client_id).toBeUndefined();
    expect(JSON.stringify(line)).not.toContain('not-the-operator-token');
  });

  it('log and count a dashboard call, naming the session customer and never the minted token', async () => {
    const session = await t.dashboardSession(fx.customerId);
    expect(lines.find((l) => l.route === 'ops.dashboard_tokens.create')?.client_id).toBe('operator');
    const before = await counted({ route: 'dashboard.api_tokens.create', status: '200' });
    const minted = await t.request('POST', '/api/v1/pem-systems/qc/api-tokens', {
      token: session,
      body: { name: 'logged', scopes: ['inventory.read'] },
    });
    expect(minted.status).toBe(200);
    const line = lineOf(minted);
    expect(line).toMatchObject({
      route: 'dashboard.api_tokens.create',
      status: 200,
      client_id: 'dashboard',
      customer_id: fx.customerId,
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(session);
    expect(text).not.toContain(minted.body.data.token);
    expect((await counted({ route: 'dashboard.api_tokens.create', status: '200' })) - before).toBe(1);
  });
});
