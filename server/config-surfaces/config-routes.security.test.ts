import { beforeAll, describe, expect, it } from 'bun:test';
import { routeTable } from '../route-table.ts';
import type { Reply } from '../testing/harness.ts';
import { call, configTest } from './test-fixtures.ts';

/**
 * Every configuration-surface route (spec 4.7), table-driven: 404 across customers and outside the token's
 * property allow-list, 403 when the route is not on the token's endpoint allow-list, and an idempotent
 * replay of each write (same status, body and headers, plus Idempotency-Replayed), and 403 for a token
 * without properties.manage (the route-table auth walk checks that too, for every route).
 */
const CONFIG_TAGS = new Set([
  'payment_policies',
  'cancellation_policies',
  'age_groups',
  'extra_services',
  'promotions',
  'booking_buttons',
  'special_offers',
]);

const PROMOTION = { name: 'Fixture', type: 'basic', discount_type: 'percent', discount_value: 5 };

const OFFER = {
  name: 'Fixture',
  active_from_date: '2026-07-01',
  active_to_date: '2026-07-31',
  rate_plans_ids: ['BAR'],
  discount_percent: 10,
};

const c = configTest();
let allowListToken: string;
let endpointToken: string;
let scopeToken: string;
let serial = 0;

/** Ids of one live record of each entity, on the demo's live property. */
interface Fixture {
  property: string;
  paymentPolicy: () => Promise<string>;
  cancellationPolicy: () => Promise<string>;
  extraService: () => Promise<string>;
  promotion: () => Promise<string>;
  button: string;
  specialOffer: () => Promise<string>;
}
let f: Fixture;

interface RouteCase {
  name: string;
  path: (f: Fixture) => Promise<string>;
  body?: (f: Fixture) => unknown;
}

const created = async (path: string, body: unknown) => {
  const res = await call(c, 'POST', path, body);
  if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${res.text}`);
  return res.body.data.id as string;
};

const cases: RouteCase[] = [
  { name: 'qc.payment_policies.list', path: async (x) => `/properties/${x.property}/payment_policies` },
  {
    name: 'qc.payment_policies.show',
    path: async (x) => `/properties/${x.property}/payment_policies/${await x.paymentPolicy()}`,
  },
  {
    name: 'qc.payment_policies.create',
    path: async (x) => `/properties/${x.property}/payment_policies`,
    body: () => ({ name: 'On arrival', pay_type: 'on_arr' }),
  },
  {
    name: 'qc.payment_policies.update',
    path: async (x) => `/properties/${x.property}/payment_policies/${await x.paymentPolicy()}`,
    body: () => ({ name: 'Renamed' }),
  },
  {
    name: 'qc.payment_policies.delete',
    path: async (x) => `/properties/${x.property}/payment_policies/${await x.paymentPolicy()}`,
  },
  { name: 'qc.cancellation_policies.list', path: async (x) => `/properties/${x.property}/cancellation_policies` },
  {
    name: 'qc.cancellation_policies.show',
    path: async (x) => `/properties/${x.property}/cancellation_policies/${await x.cancellationPolicy()}`,
  },
  {
    name: 'qc.cancellation_policies.create',
    path: async (x) => `/properties/${x.property}/cancellation_policies`,
    body: () => ({
      name_tr: { 'en-GB': 'Non-refundable' },
      data: [{ c_type: 'after_booking', p_type: 'percent', p_value: 100 }],
    }),
  },
  {
    name: 'qc.cancellation_policies.update',
    path: async (x) => `/properties/${x.property}/cancellation_policies/${await x.cancellationPolicy()}`,
    body: () => ({ name: 'Renamed' }),
  },
  {
    name: 'qc.cancellation_policies.delete',
    path: async (x) => `/properties/${x.property}/cancellation_policies/${await x.cancellationPolicy()}`,
  },
  { name: 'qc.age_groups.show', path: async (x) => `/properties/${x.property}/age-groups` },
  {
    name: 'qc.age_groups.update',
    path: async (x) => `/properties/${x.property}/age-groups`,
    body: () => ({ groups: [{ code: 'C', to_age: 12 }] }),
  },
  { name: 'qc.extra_services.list', path: async (x) => `/properties/${x.property}/extra_services` },
  {
    name: 'qc.extra_services.show',
    path: async (x) => `/properties/${x.property}/extra_services/${await x.extraService()}`,
  },
  {
    name: 'qc.extra_services.create',
    path: async (x) => `/properties/${x.property}/extra_services`,
    body: () => ({ name: 'Parking', price: 10, price_type: 2 }),
  },
  {
    name: 'qc.extra_services.update',
    path: async (x) => `/properties/${x.property}/extra_services/${await x.extraService()}`,
    body: () => ({ price: 11 }),
  },
  {
    name: 'qc.extra_services.delete',
    path: async (x) => `/properties/${x.property}/extra_services/${await x.extraService()}`,
  },
  { name: 'qc.promotions.list', path: async (x) => `/properties/${x.property}/promotions` },
  { name: 'qc.promotions.show', path: async (x) => `/properties/${x.property}/promotions/${await x.promotion()}` },
  { name: 'qc.promotions.create', path: async (x) => `/properties/${x.property}/promotions`, body: () => PROMOTION },
  {
    name: 'qc.promotions.update',
    path: async (x) => `/properties/${x.property}/promotions/${await x.promotion()}`,
    body: () => ({ discount_value: 7 }),
  },
  { name: 'qc.promotions.delete', path: async (x) => `/properties/${x.property}/promotions/${await x.promotion()}` },
  { name: 'qc.booking_buttons.list', path: async (x) => `/properties/${x.property}/booking_buttons` },
  { name: 'qc.special_offers.list', path: async (x) => `/booking_buttons/${x.button}/special_offers` },
  {
    name: 'qc.special_offers.create',
    path: async (x) => `/booking_buttons/${x.button}/special_offers`,
    body: () => OFFER,
  },
  {
    name: 'qc.special_offers.update',
    path: async (x) => `/special_offers/${await x.specialOffer()}`,
    body: () => ({ discount_percent: 12 }),
  },
  { name: 'qc.special_offers.delete', path: async (x) => `/special_offers/${await x.specialOffer()}` },
];

beforeAll(async () => {
  const live = c.property;
  const buttons = await call(c, 'GET', `/properties/${live}/booking_buttons`);
  const button = buttons.body.data.booking_buttons[0].id as string;
  f = {
    property: live,
    paymentPolicy: () => created(`/properties/${live}/payment_policies`, { name: 'Fixture', pay_type: 'on_dep' }),
    cancellationPolicy: () =>
      created(`/properties/${live}/cancellation_policies`, { name_tr: { 'en-GB': 'Fixture' }, data: [] }),
    extraService: () => created(`/properties/${live}/extra_services`, { name: 'Fixture', price: 5, price_type: 1 }),
    promotion: () => created(`/properties/${live}/promotions`, PROMOTION),
    button,
    specialOffer: () => created(`/booking_buttons/${button}/special_offers`, OFFER),
  };
  allowListToken = (
    await c.t.client({
      customer_id: c.demo.customer_id,
      scopes: ['properties.manage'],
      property_ids: [c.demo.properties[1]?.id as string],
    })
  ).token;
  scopeToken = (
    await c.t.client({
      customer_id: c.demo.customer_id,
      scopes: ['inventory.read', 'bookings.read'],
      account_scoped: true,
    })
  ).token;
  endpointToken = (
    await c.t.client({
      customer_id: c.demo.customer_id,
      scopes: ['properties.manage'],
      account_scoped: true,
      endpoint_scopes: ['qc.properties.list'],
    })
  ).token;
});

const perRequest = /^(x-qc-request-id|x-ratelimit-.*|retry-after|idempotency-.*|date|content-length)$/;
const stableHeaders = (res: Reply) =>
  [...res.headers].filter(([name]) => !perRequest.test(name)).sort(([a], [b]) => (a < b ? -1 : 1));

describe('configuration routes', () => {
  it('covers every configuration route of the route table', () => {
    const tabled = routeTable.filter((r) => CONFIG_TAGS.has(r.tags[0] ?? '')).map((r) => r.name);
    expect(tabled.sort()).toEqual(cases.map((k) => k.name).sort());
  });

  for (const k of cases) {
    const spec = () => {
      const found = routeTable.find((r) => r.name === k.name);
      if (!found) throw new Error(`${k.name} is not in the route table`);
      return found;
    };
    const send = async (token: string, path: string, headers: Record<string, string> = {}) =>
      c.t.request(spec().method, `/v1/qc${path}`, { token, body: k.body?.(f), headers });

    it(`${k.name}: 404 for another customer's token`, async () => {
      const res = await send(c.other.personal_token, await k.path(f));
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 404, message: 'errors.not_found' });
    });

    it(`${k.name}: 404 for a property outside the token's allow-list`, async () => {
      const res = await send(allowListToken, await k.path(f));
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 404, message: 'errors.not_found' });
    });

    it(`${k.name}: 403 for a token without properties.manage`, async () => {
      const res = await send(scopeToken, await k.path(f));
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 403,
        message: 'errors.qc.insufficient_scope',
      });
    });

    it(`${k.name}: 403 when the route is not on the token's endpoint allow-list`, async () => {
      const res = await send(endpointToken, await k.path(f));
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 403,
        message: 'errors.qc.endpoint_not_allowed',
      });
    });

    if (k.body || spec().method !== 'GET') {
      it(`${k.name}: replays the first answer for the same Idempotency-Key`, async () => {
        const path = await k.path(f);
        const headers = { 'idempotency-key': `config-replay-${++serial}` };
        const first = await send(c.token, path, headers);
        const again = await send(c.token, path, headers);
        expect(first.status).toBeLessThan(300);
        expect(again.status).toBe(first.status);
        expect(again.text).toBe(first.text);
        expect(stableHeaders(again)).toEqual(stableHeaders(first));
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        expect(first.headers.get('idempotency-replayed')).toBeNull();
      });
    }
  }
});
