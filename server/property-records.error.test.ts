import { describe, expect, it } from 'bun:test';
import { call, configTest } from './config-surfaces/test-fixtures.ts';
import { mountRoutes } from './core/http/mount-routes.ts';
import { createQcApp } from './core/http/qc-app.ts';
import type { PathRecordResolver } from './core/routes/path-record.ts';
import type { RouteDefinition } from './core/routes/route.ts';
import type { Demo } from './demo/demo.ts';
import { routeTable } from './route-table.ts';
import { errorEnvelope } from './testing/error-envelope.ts';
import { invalidInputs } from './testing/invalid-inputs.ts';

/**
 * README (Authorization, request order): the record a path names is resolved for the caller before the body is
 * read, so one the caller may not see is a 404 whatever the body. Under /properties/:property the property was
 * (server/core/routes/in-property.error.test.ts) but not its record: `PATCH /properties/{ext}/payment_policies/
 * <another property's policy> {"name": 42}` answered 422, and so did every route naming a policy, service,
 * promotion, page, answer, review, booking, room type or rate plan of a property. Walked over every route whose path
 * names a record under /properties/:property: another property's record of the same customer, another customer's,
 * an unknown id and an id of the wrong form are 404 with every kind of invalid body (or query); the caller's own
 * record is refused for what the body is (422).
 */
const c = configTest();

/** Routes that name a record under a property but still look it up in their handler, each with why. TRANSITION: only shrinks. */
const NOT_YET: Record<string, string> = {};
const namingRecords = routeTable.filter((r) => /^\/properties\/:property\/[^:]*:\w/.test(r.path));
const routes = namingRecords.filter((r) => !(r.name in NOT_YET));

/** The collection a route's record sits in (`payment_policies`) and the path parameter naming it. */
function recordOf(spec: RouteDefinition): { collection: string; param: string } {
  const [, collection, param] = /^\/properties\/:property\/(\w+)\/:(\w+)/.exec(spec.path) ?? [];
  return { collection: collection as string, param: param as string };
}

/** A record of each collection on the demo's live property (the demo makes one of each there). */
function recordsOf(demo: Demo): Record<string, string> {
  const live = demo.properties[0];
  return {
    bookings: demo.bookings[0]?.external_booking_id as string,
    room_types: live?.room_types[0]?.id as string,
    rate_plans: live?.rate_plans[0]?.id as string,
    payment_policies: demo.configuration.payment_policy_id,
    cancellation_policies: demo.configuration.cancellation_policy_id,
    extra_services: demo.configuration.extra_service_id,
    promotions: demo.configuration.promotion_id,
    content_pages: demo.content_page.id,
    guest_feedback: demo.guest_feedback_id,
    reviews: demo.review_id,
  };
}

const pathFor = (spec: RouteDefinition, property: string, id: string) =>
  `/v1/qc${spec.path.replace(':property', property).replace(`:${recordOf(spec).param}`, encodeURIComponent(id))}`;

/** A query that fails validation, for each read that takes one (a read without one has only its path to refuse). */
const INVALID_QUERIES: Record<string, Record<string, string>> = {
  'qc.rates.show': { from: 'x', to: '2026-13-45' },
};

describe('routes naming a record under /properties/:property answer 404 for one the caller may not see, before the body', () => {
  it('walks reads, writes and actions of every such record', () => {
    expect(routes.length).toBeGreaterThan(30);
    for (const name of ['qc.payment_policies.update', 'qc.bookings.cancel', 'qc.rates.write', 'qc.reviews.reply'])
      expect(routes.map((r) => r.name)).toContain(name);
    // Each declares its path's record; the routes left to do still name one.
    expect(routes.filter((r) => !r.pathRecord).map((r) => r.name)).toEqual([]);
    expect(
      namingRecords
        .filter((r) => r.name in NOT_YET)
        .map((r) => r.name)
        .sort(),
    ).toEqual(Object.keys(NOT_YET).sort());
    // Every collection walked has a record to walk with; a read with a query of its own is walked with an invalid one.
    const records = recordsOf(c.demo);
    expect(routes.filter((r) => !records[recordOf(r).collection]).map((r) => r.name)).toEqual([]);
    const readsWithQuery = routes.filter((r) => r.method === 'GET' && r.query).map((r) => r.name);
    expect(readsWithQuery.sort()).toEqual(Object.keys(INVALID_QUERIES).sort());
  });

  for (const spec of routes) {
    it(`${spec.method} ${spec.path} (${spec.name}): 404 for another property's or customer's record, an unknown id and an id of the wrong form`, async () => {
      const { collection } = recordOf(spec);
      const [live, shadow] = c.demo.properties.map((p) => p.id) as [string, string];
      const mine = recordsOf(c.demo)[collection] as string;
      const inputs = invalidInputs(spec, INVALID_QUERIES);
      const each = inputs.length ? inputs : [{}];
      // The same inputs on the caller's own record are refused for what they are: the 404s below are the record's.
      for (const input of each) {
        const own = await c.t.request(spec.method, pathFor(spec, live, mine), { token: c.token, ...input });
        expect(own.status).toBe(inputs.length ? 422 : 200);
      }
      const paths = {
        otherProperty: pathFor(spec, shadow, mine),
        otherCustomer: pathFor(spec, live, recordsOf(c.other)[collection] as string),
        unknown: pathFor(spec, live, '00000000-0000-4000-8000-000000000000'),
        wrongForm: pathFor(spec, live, 'not-an-id'),
      };
      const seen: Record<string, number[]> = {};
      for (const [which, path] of Object.entries(paths)) {
        seen[which] = [];
        for (const input of each) {
          const res = await c.t.request(spec.method, path, { token: c.token, ...input });
          seen[which]?.push(res.status);
          if (res.status === 404) expect(res.body).toEqual(errorEnvelope('errors.not_found'));
        }
      }
      const all404 = each.map(() => 404);
      expect(seen).toEqual({ otherProperty: all404, otherCustomer: all404, unknown: all404, wrongForm: all404 });
    });
  }
});

describe('a read of a record under a property answers the row the pipeline resolved, without a second look-up', () => {
  const MARK = '11111111-2222-4333-8444-555555555555';
  /** Reads whose answer shows their record's id, and the column holding it. */
  const SHOWN: Record<string, 'external_id' | 'external_booking_id'> = {
    'qc.bookings.show': 'external_booking_id',
    'qc.room_types.show': 'external_id',
    'qc.payment_policies.show': 'external_id',
    'qc.cancellation_policies.show': 'external_id',
    'qc.extra_services.show': 'external_id',
    'qc.promotions.show': 'external_id',
    'qc.content_pages.show': 'external_id',
    'qc.guest_feedback.show': 'external_id',
    'qc.reviews.show': 'external_id',
  };

  for (const [name, column] of Object.entries(SHOWN)) {
    it(`${name} answers the resolved row, looked up once`, async () => {
      const spec = routes.find((r) => r.name === name) as RouteDefinition;
      const resolve = spec.pathRecord as PathRecordResolver<Record<string, unknown>>;
      let lookups = 0;
      const app = createQcApp(c.t.deps);
      // The row as resolved, its id marked: an answer showing the mark was built from this row, not read again.
      mountRoutes(app, c.t.deps, [
        {
          ...spec,
          pathRecord: async (deps, principal, params, request) => {
            lookups++;
            return { ...(await resolve(deps, principal, params, request)), [column]: MARK };
          },
        },
      ]);
      const path = pathFor(spec, c.property, recordsOf(c.demo)[recordOf(spec).collection] as string);
      const res = await app.handle(
        new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${c.token}` } }),
      );
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(MARK);
      expect(lookups).toBe(1);
    });
  }
});

describe('a keyed retry of a write whose record is gone replays its first answer', () => {
  const make = {
    payment_policies: async () =>
      (await call(c, 'POST', `/properties/${c.property}/payment_policies`, { name: 'Gone', pay_type: 'on_arr' })).body
        .data.id,
    content_pages: async () =>
      (
        await call(c, 'POST', `/properties/${c.property}/content_pages`, {
          slug: `gone-${crypto.randomUUID()}`,
          title: 'Gone',
        })
      ).body.data.id,
  };

  it('replays a DELETE that went through (a soft-deleted policy, a deleted page), and answers 404 to one without a key', async () => {
    const answers: Record<string, unknown> = {};
    for (const [collection, create] of Object.entries(make)) {
      const path = `/properties/${c.property}/${collection}/${await create()}`;
      const headers = { 'idempotency-key': `gone-${crypto.randomUUID()}` };
      const first = await call(c, 'DELETE', path, undefined, headers);
      const again = await call(c, 'DELETE', path, undefined, headers);
      const unkeyed = await call(c, 'DELETE', path);
      answers[collection] = {
        first: first.status,
        again: [again.status, again.text === first.text, again.headers.get('idempotency-replayed')],
        unkeyed: unkeyed.body,
      };
    }
    const replayed = { first: 200, again: [200, true, 'true'], unkeyed: errorEnvelope('errors.not_found') };
    expect(answers).toEqual({ payment_policies: replayed, content_pages: replayed });
  });

  it('replays a PATCH whose record went since for the same body; another body is the 404 and claims nothing', async () => {
    const path = `/properties/${c.property}/payment_policies/${await make.payment_policies()}`;
    const key = { 'idempotency-key': `patched-then-gone-${crypto.randomUUID()}` };
    const first = await call(c, 'PATCH', path, { name: 'Renamed' }, key);
    expect(first.status).toBe(200);
    expect((await call(c, 'DELETE', path)).status).toBe(200);
    const again = await call(c, 'PATCH', path, { name: 'Renamed' }, key);
    expect([again.status, again.text, again.headers.get('idempotency-replayed')]).toEqual([200, first.text, 'true']);
    const other = await call(c, 'PATCH', path, { name: 'Other' }, key);
    expect(other.body).toEqual(errorEnvelope('errors.not_found'));
    // The first answer is still the key's: the refusal kept nothing under it.
    expect((await call(c, 'PATCH', path, { name: 'Renamed' }, key)).text).toBe(first.text);
  });

  it('claims no key for a record refused before the body: the same key then runs on the own record', async () => {
    const mine = await make.payment_policies();
    const headers = { 'idempotency-key': `refused-first-${crypto.randomUUID()}` };
    const shadow = c.demo.properties[1]?.id;
    const refused = await call(c, 'PATCH', `/properties/${shadow}/payment_policies/${mine}`, { name: 'X' }, headers);
    expect(refused.body).toEqual(errorEnvelope('errors.not_found'));
    // Same key, another path: a fresh operation anyway; on the refused path itself nothing was kept either.
    const changed = await call(
      c,
      'PATCH',
      `/properties/${c.property}/payment_policies/${mine}`,
      { name: 'X' },
      headers,
    );
    expect([changed.status, changed.body.data.name]).toEqual([200, 'X']);
    const again = await call(c, 'PATCH', `/properties/${shadow}/payment_policies/${mine}`, { name: 'X' }, headers);
    expect([again.status, again.headers.get('idempotency-replayed')]).toEqual([404, null]);
  });
});
