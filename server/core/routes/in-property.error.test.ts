import { beforeAll, describe, expect, it } from 'bun:test';
import { routeCatalogue as routeList } from '../../route-table.ts';
import { errorEnvelope } from '../../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../../testing/harness.ts';
import { SCOPES } from '../auth/scopes.ts';
import { underProperty } from './in-property.ts';

/**
 * README (Authorization): a property outside the token's allow-list is 404 errors.not_found like a missing one,
 * and these checks run before body validation. A partner saw `POST /properties/NOPE/room_types {}` answer 422
 * (name required), and malformed JSON answer 422, while a valid body answered 404: the property was looked up by
 * the handler, after the body. Walked over every route under /properties/:property: a property the caller may
 * not see is a 404 whatever the body or query; the token checks still come first.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const other = perFile(() => t.demo());
let narrowed: string;
beforeAll(async () => {
  // Every scope, but only the demo's first property.
  narrowed = (
    await t.client({
      customer_id: demo.customer_id,
      scopes: [...SCOPES],
      property_ids: [demo.properties[0]?.external_property_id as string],
    })
  ).token;
});

const routes = routeList.filter((r) => r.auth !== 'none' && underProperty(r));
const UUID = '00000000-0000-4000-8000-000000000000';
const pathOf = (template: string, property: string) =>
  `/v1/qc${template.replace(':property', encodeURIComponent(property)).replace(/:(\w+)/g, UUID)}`;

/** What a request may carry that would fail validation: an empty object, malformed JSON; for a read, paging. */
const invalidInputs = (method: string) =>
  method === 'GET'
    ? [{ query: { per_page: 0 } }, { query: { page: 'x' } }]
    : [{ body: {} }, { raw: '{bad' }, { body: { name: 42, values: 'x', unknown_field: true } }];

describe('routes under /properties/:property answer 404 for a property the caller may not see, before the body', () => {
  it('walks the routes under a property, writes among them', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const name of ['qc.room_types.create', 'qc.properties.update', 'qc.catalogue.replace'])
      expect(routes.map((r) => r.name)).toContain(name);
  });

  for (const spec of routes) {
    it(`${spec.method} ${spec.path} (${spec.name}): 404 for a missing, another customer's or a not allowed property`, async () => {
      const properties = {
        missing: 'NOPE',
        otherCustomer: other.properties[0]?.external_property_id as string,
        notAllowed: demo.properties[1]?.external_property_id as string,
      };
      const inputs = invalidInputs(spec.method);
      const seen: Record<string, number[]> = {};
      for (const [which, property] of Object.entries(properties)) {
        const token = which === 'notAllowed' ? narrowed : demo.personal_token;
        const statuses: number[] = [];
        for (const input of inputs) {
          const res = await t.request(spec.method, pathOf(spec.path, property), { token, ...input });
          statuses.push(res.status);
          if (res.status === 404) expect(res.body).toEqual(errorEnvelope('errors.not_found'));
        }
        seen[which] = statuses;
      }
      const all404 = inputs.map(() => 404);
      expect(seen).toEqual({ missing: all404, otherCustomer: all404, notAllowed: all404 });
    });
  }

  it('still answers 401 without a token and 403 without the scope before the 404', async () => {
    const path = pathOf('/properties/:property/room_types', 'NOPE');
    const anonymous = await t.request('POST', path, { raw: '{bad' });
    expect(anonymous.body).toEqual(errorEnvelope('errors.unauthorized'));
    const { token } = await t.client({ customer_id: demo.customer_id, scopes: ['bookings.read'] });
    const unscoped = await t.request('POST', path, { token, raw: '{bad' });
    expect(unscoped.status).toBe(403);
    expect(unscoped.body.message).toBe('errors.qc.insufficient_scope');
  });

  it('validates the body of a property the caller may see, as before', async () => {
    const path = pathOf('/properties/:property/room_types', demo.properties[0]?.external_property_id as string);
    const malformed = await t.request('POST', path, { token: narrowed, raw: '{bad' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual({ body: ['customer.room_type.messages.malformed'] });
    expect((await t.request('POST', path, { token: narrowed, body: {} })).status).toBe(422);
  });
});
