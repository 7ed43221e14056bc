import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { uriOf } from '../server/core/routes/route.ts';
import { routeTable } from '../server/route-table.ts';
import { perFile, testAppPerFile } from '../server/testing/harness.ts';

/**
 * Issue 28 item 13: the README said legacy getPropertySettings `services` was "always `[]`" (it lists extra
 * services) and that 404s carry no rate-limit headers (they did). Where the README states behaviour a partner
 * relies on, the statement is quoted here and checked against the service: reword it and this test asks you to
 * check it again; change the behaviour and the check fails.
 */
// The routes the route table serves without a bearer, written as the README and the document's description list
// them: a route added or changed to `auth: 'none'` fails here until both name it.
const noTokenRoutes = routeTable.filter((route) => route.auth === 'none');
const noTokenList = noTokenRoutes.map((route) => `\`${route.method} ${uriOf(route)}\``).join(', ');

const readme = readFileSync(join(import.meta.dir, '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const token = () => demo.personal_token;
const live = () => demo.properties[0]?.id as string;

const claims: { says: string; check: () => Promise<void> }[] = [
  {
    says: 'getPropertySettings `services` lists the live services',
    async check() {
      await t.request('POST', `/v1/qc/properties/${live()}/extra_services`, {
        token: token(),
        body: { name: 'Claimed breakfast', price: 12, price_type: 1 },
      });
      const legacy = demo.legacy as { api_key: string };
      const res = await t.request('GET', '/api/pms/v1/property/getPropertySettings', {
        query: { api_key: legacy.api_key, names: 'services' },
      });
      const services = JSON.parse(res.text).data.services as { name: string }[];
      expect(services.map((s) => s.name)).toContain('Claimed breakfast');
    },
  },
  {
    says: 'an unknown path (404 `errors.not_found`), spends the bucket `public`',
    async check() {
      const res = await t.request('GET', '/v1/qc/claims-no-such-path');
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
      expect(res.headers.get('x-ratelimit-bucket')).toBe('public');
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    },
  },
  {
    says: '`page` (from 1) and `per_page` (1 to 200, default 200); a value outside is 422',
    async check() {
      const list = await t.request('GET', '/v1/qc/properties', { token: token() });
      expect(list.body.data.meta.per_page).toBe(200);
      const over = await t.request('GET', '/v1/qc/properties', { token: token(), query: { per_page: 201 } });
      expect(over.status).toBe(422);
    },
  },
  {
    says: 'only with `clear_unlisted: true` (the default is false',
    async check() {
      const res = await t.request('POST', '/v1/qc/catalogue-sync', {
        token: token(),
        body: { properties: [{ property_id: live(), rooms: [] }] },
      });
      expect(res.body.data.clear_unlisted).toBe(false);
    },
  },
  {
    says: 'the routes that need none, `GET /properties`',
    async check() {
      const narrow = await t.client({
        customer_id: demo.customer_id,
        scopes: ['inventory.read'],
        property_ids: [live()],
        endpoint_scopes: ['qc.room_types.*'],
      });
      expect((await t.request('GET', '/v1/qc/properties', { token: narrow.token })).status).toBe(200);
    },
  },
  {
    says: `Routes that need no token: ${noTokenList}, and the API document and its docs page`,
    async check() {
      // Each answers without a bearer (the token endpoint refuses the missing client, never a missing token)...
      for (const route of noTokenRoutes) {
        const res = await t.request(route.method, uriOf(route), { form: { grant_type: 'client_credentials' } });
        expect([route.name, res.body.message]).not.toEqual([route.name, 'errors.unauthorized']);
      }
      for (const path of ['/v1/qc/openapi.json', '/v1/qc/openapi.yaml', '/v1/qc/docs'])
        expect([path, (await t.request('GET', path)).status]).toEqual([path, 200]);
      // ... every other route refuses one (the auth walk: server/core/routes/route-table.rule.test.ts) ...
      expect((await t.request('GET', '/v1/qc/properties')).status).toBe(401);
      // ... and the document's own description names the same routes.
      const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
      expect(doc.info.description.replace(/\s+/g, ' ')).toContain(
        `All endpoints except ${noTokenList}, and this document`,
      );
    },
  },
  {
    says: 'on every other write in `warnings` beside `data`',
    async check() {
      const res = await t.request('PATCH', `/v1/qc/properties/${live()}`, {
        token: token(),
        body: { partner_nmae: 'typo' },
      });
      expect(res.body.warnings).toEqual([{ field: 'partner_nmae', key: 'errors.qc.unknown_field' }]);
    },
  },
  {
    says: 'Answer (not enveloped): `{access_token, token_type: "Bearer", expires_in: 3600, scope}`',
    async check() {
      const res = await t.request('POST', '/v1/qc/oauth/token', {
        form: {
          grant_type: 'client_credentials',
          client_id: demo.client.client_id,
          client_secret: demo.client.client_secret,
        },
      });
      expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(res.body.status).toBeUndefined();
    },
  },
  {
    // The README once promised numbers as text everywhere; the calendar writes never took them.
    says: 'a number written as text (`"qty": "5"`) is read as the number, as v1 always did, except where a field has only ever taken JSON numbers: the calendar writes',
    async check() {
      const room = await t.request('POST', `/v1/qc/properties/${live()}/room_types`, {
        token: token(),
        raw: '{"name":"Claimed loft","qty":"5"}',
      });
      expect([room.status, room.body.data?.qty]).toEqual([201, 5]);
      const day = new Date(Date.now() + 10 * 864e5).toISOString().slice(0, 10);
      const push = await t.request('POST', `/v1/qc/properties/${live()}/inventory/availability`, {
        token: token(),
        raw: JSON.stringify({ values: [{ room_type_id: 'DBL', date_from: day, date_to: day, availability: '4' }] }),
      });
      expect([push.status, push.body.errors]).toEqual([
        422,
        { 'values.0.availability': ['customer.availability.messages.integer'] },
      ]);
    },
  },
  {
    // The revision payload section once said the fee was never computed (default 0): it is, from the snapshot.
    says: '`fee_charged` is what the canceller states; without one, what the frozen cancellation rules charge on the property-local cancellation day',
    async check() {
      const policy = await t.request('POST', `/v1/qc/properties/${live()}/cancellation_policies`, {
        token: token(),
        body: { name: 'Claimed half', data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 50 }] },
      });
      await t.request('PATCH', `/v1/qc/properties/${live()}/rate_plans/BAR`, {
        token: token(),
        body: { cancellation_policy_id: policy.body.data.id },
      });
      const day = (n: number) => new Date(Date.now() + n * 864e5).toISOString().slice(0, 10);
      const booking = await t.request('POST', '/v1/qc/bookings', {
        token: token(),
        body: {
          property_id: live(),
          source_channel: 'QDO',
          reference: 'CLAIM-FEE',
          guest: { first_name: 'Ola', last_name: 'Berg' },
          checkin_date: day(10),
          checkout_date: day(12),
          rooms: [{ room_type_id: 'DBL', rate_plan_id: 'BAR', qty: 1, adults: 2, children: 0, price: 200 }],
          total_price: { amount: 200, currency: 'EUR' },
        },
      });
      expect(booking.status).toBe(201);
      const id = booking.body.data.external_booking_id;
      const cancelled = await t.request('POST', `/v1/qc/properties/${live()}/bookings/${id}/cancel`, {
        token: token(),
      });
      expect(cancelled.body.data.cancellation.fee_charged).toBe(100);
      expect(readme).toContain('cancelling it without a stated `fee_charged` charges what the frozen rules say');
    },
  },
  {
    says: '**A group holds at most 1000 properties**: `property_ids` is the whole member list, so more than 1000 is a 422 `property_ids` `max_items`',
    async check() {
      const refs = (n: number) => Array.from({ length: n }, (_, i) => `CLAIM-GROUP-${i}`);
      const over = await t.request('POST', '/v1/qc/property-groups', {
        token: token(),
        body: { name: 'Too many', property_ids: refs(1001) },
      });
      expect(over.status).toBe(422);
      expect(over.body.errors).toEqual({ property_ids: ['customer.property_group.messages.max_items'] });
      // 1000 pass the bound: these are refused only as properties the account does not hold.
      const bound = await t.request('POST', '/v1/qc/property-groups', {
        token: token(),
        body: { name: 'At the bound', property_ids: refs(1000) },
      });
      expect(bound.status).toBe(422);
      expect(bound.body.errors['property_ids.999']).toEqual(['customer.property_group.messages.in']);
    },
  },
];

describe('what the README states, checked against the service', () => {
  for (const claim of claims) {
    it(`README: "${claim.says}"`, async () => {
      expect(readme).toContain(claim.says);
      await claim.check();
    });
  }
});
