import { describe, expect, it } from 'bun:test';
import { OPERATOR_PREFIX } from '../core/routes/operator-route.ts';
import { operatorRouteTable } from '../operator-route-table.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * The operator auth walk, like the partner route table's: every operator and dashboard operation of the
 * table is registered, nothing is served under their prefixes outside the table, and every operation
 * refuses a caller without its surface's credential with 401 in the envelope, before reading the body.
 */
const t = testAppPerFile();
// Only the specs are read here; the app under test mounted its own table with its own cutover parts.
const table = operatorRouteTable({ sunset: undefined as never });
const urlOf = (spec: (typeof table)[number]) => `${OPERATOR_PREFIX[spec.surface]}${spec.path.replace(/:(\w+)/g, '1')}`;
const dashboardToken = perFile(async () => {
  const customer = await t.ops<{ data: { id: number } }>('POST', '/ops/customers', { name: 'auth walk' });
  const res = await t.ops<{ data: { token: string } }>(
    'POST',
    `/ops/customers/${customer.body.data.id}/dashboard-token`,
  );
  return { token: res.body.data.token };
});

describe('operator route table', () => {
  it('registers every operation of the table in the app', () => {
    const registered = new Set(t.app.routes.map((r) => `${r.method} ${r.path}`));
    const missing = table.filter(
      (spec) => !registered.has(`${spec.method} ${OPERATOR_PREFIX[spec.surface]}${spec.path}`),
    );
    expect(missing.map((m) => m.name)).toEqual([]);
  });

  it('serves no operator or dashboard route that is missing from the table', () => {
    const tabled = new Set(table.map((spec) => `${spec.method} ${OPERATOR_PREFIX[spec.surface]}${spec.path}`));
    const served = t.app.routes
      .filter((r) => Object.values(OPERATOR_PREFIX).some((prefix) => r.path.startsWith(`${prefix}/`)))
      .map((r) => `${r.method} ${r.path}`);
    expect(served.filter((route) => !tabled.has(route))).toEqual([]);
  });

  it('has unique names of the form <surface>.<resource>.<action>', () => {
    const names = table.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of table) expect(r.name).toMatch(new RegExp(`^${r.surface}\\.[a-z_]+\\.[a-z_]+$`));
  });

  for (const spec of table) {
    it(`${spec.method} ${urlOf(spec)} (${spec.name}) refuses a missing or wrong credential with 401`, async () => {
      const body = spec.method === 'GET' || spec.method === 'DELETE' ? undefined : {};
      const wrong = spec.surface === 'ops' ? (await dashboardToken).token : OPERATOR_TOKEN;
      for (const token of [undefined, 'not-a-credential', wrong]) {
        const res = await t.request(spec.method, urlOf(spec), { token, body });
        expect([spec.name, res.status]).toEqual([spec.name, 401]);
        expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
      }
    });
  }
});
