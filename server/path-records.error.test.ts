import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { templateBody } from './auto-email-templates/test-fixtures.ts';
import { call, configTest } from './config-surfaces/test-fixtures.ts';
import { mountRoutes } from './core/http/mount-routes.ts';
import { createQcApp } from './core/http/qc-app.ts';
import type { PathRecordResolver } from './core/routes/path-record.ts';
import type { RouteDefinition } from './core/routes/route.ts';
import type { Demo } from './demo/demo.ts';
import { PNG_1X1, uploadImages } from './gallery/test-fixtures.ts';
import { routeTable } from './route-table.ts';
import { errorEnvelope } from './testing/error-envelope.ts';
import { invalidInputs } from './testing/invalid-inputs.ts';
import { relayBatch } from './webhooks/relay.ts';
import { commitBookingEvent, retireSubscriptions, subscribe } from './webhooks/test-support.ts';

/**
 * README (Rate limits and idempotency, request order): the record a path names is resolved for the caller before
 * the body is read, so one the caller may not see is a 404 whatever the body. `PATCH /special_offers/<another
 * customer's offer> {"discount_percent": "x"}` answered 422, as did the routes of property groups, subscriptions,
 * auto-email templates, a booking's room assignment and ack, a revision's ack and a delivery's redelivery: each
 * looked its record up in the handler, after the body (or the query) was validated; and a gallery image whose id
 * is no UUID was a 422 `format`. Walked over every route that declares its path's record (the booking buttons' own
 * walk is server/booking-buttons/path-button.error.test.ts), so a route that declares one later is held to it too.
 */
const c = configTest();
/**
 * Routes that name a record in their path but still look it up in their handler, each with why. TRANSITION: the
 * ones outside this change's folders, each to leave with the change that gives it a `pathRecord`, so the list only
 * shrinks.
 */
const NOT_YET: Record<string, string> = {};
/** Every route whose path names a record that is not a property (a property's own records sit under its path). */
const namingRecords = routeTable.filter((r) => /^\/(?!properties\/:property(\/|$))[^:]*:\w/.test(r.path));
const routes = namingRecords.filter((r) => !r.path.startsWith('/booking_buttons/:button') && !(r.name in NOT_YET));

/** The record each path parameter names, one of each per customer. */
type Records = Record<
  'offer' | 'group' | 'subscription' | 'template' | 'booking' | 'revision' | 'delivery' | 'job' | 'image',
  string
>;
let mine: Records;
let others: Records;

const OFFER = {
  name: 'Walked',
  active_from_date: '2026-07-01',
  active_to_date: '2026-07-31',
  rate_plans_ids: ['BAR'],
  discount_percent: 5,
};
const HOOK = { url: 'https://pms.example.com/hooks/qc', event: 'booking.created' };

/** A delivery of a booking event to a new subscription of the demo customer, relayed as the worker would: its id. */
async function deliveryOf(demo: Demo): Promise<string> {
  const subscription = (await subscribe(c.t, demo.personal_token, HOOK)).id;
  await commitBookingEvent(c.t, demo, HOOK.event, 1);
  while ((await relayBatch(c.t.deps)).events > 0) {}
  const log = await c.t.request('GET', '/v1/qc/deliveries', {
    token: demo.personal_token,
    query: { subscription_id: subscription },
  });
  return log.body.data.deliveries[0].id;
}

async function recordsOf(demo: Demo): Promise<Records> {
  const as = (method: string, path: string, body?: unknown) =>
    c.t.request(method, `/v1/qc${path}`, { token: demo.personal_token, body });
  const property = demo.properties[0]?.id;
  const button = (await as('GET', `/properties/${property}/booking_buttons`)).body.data.booking_buttons[0].id;
  // A sync naming no property of the customer: a job whose outcome is one failed entry, and no catalogue changed.
  const sync = { properties: [{ property_id: 'walked-nowhere' }] };
  return {
    offer: (await as('POST', `/booking_buttons/${button}/special_offers`, OFFER)).body.data.id,
    group: (await as('POST', '/property-groups', { name: 'Walked' })).body.data.id,
    subscription: (await subscribe(c.t, demo.personal_token, HOOK)).id,
    template: (await as('POST', '/auto_email_templates', templateBody(demo))).body.data.id,
    booking: (await as('GET', `/properties/${property}/bookings`)).body.data.bookings[0].external_booking_id,
    revision: String((await as('GET', '/booking_revisions/feed')).body.data.booking_revisions[0].id),
    delivery: await deliveryOf(demo),
    job: (await as('POST', '/catalogue-sync', sync)).body.data.id,
    image: await imageOf(demo),
  };
}

/** A new image in the demo customer's gallery: its id. */
async function imageOf(demo: Demo): Promise<string> {
  const uploaded = await uploadImages(c.t, demo.personal_token, [{ name: 'walked.png', bytes: PNG_1X1 }]);
  return uploaded.body.data.images[0].id;
}

beforeAll(async () => {
  mine = await recordsOf(c.demo);
  others = await recordsOf(c.other);
});
afterAll(async () => {
  for (const demo of [c.demo, c.other]) await retireSubscriptions(c.t.deps, demo.customer_id);
});

const paramOf = (spec: RouteDefinition) => /:(\w+)/.exec(spec.path)?.[1] as keyof Records;
/** An id no record has, of the form the parameter takes (a UUID unless said here; a UUID is then not an id at all). */
const UNKNOWN: Partial<Records> = { revision: '999999999999' };
const pathFor = (spec: RouteDefinition, id: string) => `/v1/qc${spec.path.replace(`:${paramOf(spec)}`, id)}`;

/** A query that fails validation, for each read that takes one (a read without one has only its path to refuse). */
const INVALID_QUERIES: Record<string, Record<string, string>> = {
  'qc.auto_email_templates.preview': { locale: 'x' },
};

describe('routes naming a record other than a property answer 404 for one the caller may not see, before the body', () => {
  it('walks reads and writes of every such record', () => {
    expect(routes.map((r) => `${r.method} ${r.name}`).sort()).toEqual([
      'DELETE qc.auto_email_templates.delete',
      'DELETE qc.gallery.delete',
      'DELETE qc.special_offers.delete',
      'DELETE qc.subscriptions.delete',
      'GET qc.auto_email_templates.preview',
      'GET qc.auto_email_templates.show',
      'GET qc.catalogue_sync.show',
      'GET qc.gallery.show',
      'GET qc.property_groups.show',
      'GET qc.subscriptions.show',
      'PATCH qc.auto_email_templates.update',
      'PATCH qc.property_groups.update',
      'PATCH qc.special_offers.update',
      'PATCH qc.subscriptions.update',
      'POST qc.booking_revisions.ack',
      'POST qc.bookings.ack',
      'POST qc.bookings.room_assignment',
      'POST qc.deliveries.redeliver',
      'POST qc.subscriptions.enable',
      'POST qc.subscriptions.rotate_secret',
    ]);
    // Each declares its path's record; the routes left to do still name one.
    expect(routes.filter((r) => !r.pathRecord).map((r) => r.name)).toEqual([]);
    expect(
      namingRecords
        .filter((r) => r.name in NOT_YET)
        .map((r) => r.name)
        .sort(),
    ).toEqual(Object.keys(NOT_YET).sort());
    // A read with a query of its own is walked with an invalid one.
    const readsWithQuery = routes.filter((r) => r.method === 'GET' && r.query).map((r) => r.name);
    expect(readsWithQuery.sort()).toEqual(Object.keys(INVALID_QUERIES).sort());
  });

  for (const spec of routes) {
    it(`${spec.method} ${spec.path} (${spec.name}): 404 for another customer's record, an unknown id and no id`, async () => {
      const param = paramOf(spec);
      const inputs = invalidInputs(spec, INVALID_QUERIES);
      // The same inputs on the caller's own record are refused for what they are: the 404s below are the record's.
      for (const input of inputs.length ? inputs : [{}]) {
        const own = await c.t.request(spec.method, pathFor(spec, mine[param]), { token: c.token, ...input });
        expect(own.status).toBe(inputs.length ? 422 : 200);
      }
      const unknown = UNKNOWN[param] ?? '00000000-0000-4000-8000-000000000000';
      const ids = { others: others[param], unknown, notAnId: 'not-an-id' };
      const seen: Record<string, number[]> = {};
      for (const [which, id] of Object.entries(ids)) {
        seen[which] = [];
        for (const input of inputs.length ? inputs : [{}]) {
          const res = await c.t.request(spec.method, pathFor(spec, id), { token: c.token, ...input });
          seen[which]?.push(res.status);
          if (res.status === 404) expect(res.body).toEqual(errorEnvelope('errors.not_found'));
        }
      }
      const all404 = (inputs.length ? inputs : [{}]).map(() => 404);
      expect(seen).toEqual({ others: all404, unknown: all404, notAnId: all404 });
    });
  }

  it('refuses a credential narrowed to some properties on a group with 403, before the body', async () => {
    const narrowed = await c.t.client({
      customer_id: c.demo.customer_id,
      scopes: ['groups.manage'],
      property_ids: [c.property],
    });
    const res = await c.t.request('PATCH', `/v1/qc/property-groups/${mine.group}`, {
      token: narrowed.token,
      raw: '{bad',
    });
    expect(res.body).toEqual(errorEnvelope('errors.qc.account_scoped_credential_required'));
  });

  it('claims no Idempotency-Key for a record refused before the body', async () => {
    const headers = { 'idempotency-key': 'record-refused-first' };
    const refused = await call(c, 'PATCH', `/special_offers/${others.offer}`, { discount_percent: 9 }, headers);
    expect(refused.status).toBe(404);
    // The same key on the caller's own offer runs: nothing was kept under it for the refusal.
    const changed = await call(c, 'PATCH', `/special_offers/${mine.offer}`, { discount_percent: 9 }, headers);
    expect(changed.status).toBe(200);
    expect(changed.body.data.discount_percent).toBe(9);
  });

  it('replays a keyed retry of a DELETE that went through, and answers 404 to a DELETE without a key', async () => {
    const button = (await call(c, 'GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
    const deleted = {
      offer: `/special_offers/${(await call(c, 'POST', `/booking_buttons/${button}/special_offers`, OFFER)).body.data.id}`,
      subscription: `/subscriptions/${(await subscribe(c.t, c.token, HOOK)).id}`,
      template: `/auto_email_templates/${(await call(c, 'POST', '/auto_email_templates', templateBody(c.demo))).body.data.id}`,
      image: `/gallery/${await imageOf(c.demo)}`,
    };
    for (const [which, path] of Object.entries(deleted)) {
      const headers = { 'idempotency-key': `deleted-${which}` };
      const first = await call(c, 'DELETE', path, undefined, headers);
      expect(first.status).toBe(200);
      const again = await call(c, 'DELETE', path, undefined, headers);
      expect({ status: again.status, text: again.text, replayed: again.headers.get('idempotency-replayed') }).toEqual({
        status: 200,
        text: first.text,
        replayed: 'true',
      });
      expect((await call(c, 'DELETE', path)).body).toEqual(errorEnvelope('errors.not_found'));
    }
  });

  it('replays a keyed retry of either ack, and of a redelivery whose subscription was deleted since', async () => {
    const revision = (await call(c, 'GET', '/booking_revisions/feed')).body.data.booking_revisions[0].id;
    const delivery = await deliveryOf(c.demo);
    const writes: [string, () => Promise<unknown>][] = [
      [`/booking_revisions/${revision}/ack`, async () => {}],
      [`/bookings/${mine.booking}/ack`, async () => {}],
      [
        `/deliveries/${delivery}/redeliver`,
        () => c.t.deps.db.sql`update subscriptions set deleted_at = now()
          where id = (select subscription_id from deliveries where external_id = ${delivery})`,
      ],
    ];
    for (const [path, meanwhile] of writes) {
      const headers = { 'idempotency-key': `retried-${path}` };
      const first = await call(c, 'POST', path, undefined, headers);
      expect(first.status).toBeLessThan(300);
      await meanwhile();
      const again = await call(c, 'POST', path, undefined, headers);
      expect({ status: again.status, text: again.text, replayed: again.headers.get('idempotency-replayed') }).toEqual({
        status: first.status,
        text: first.text,
        replayed: 'true',
      });
    }
    // Without a key, the delivery of the deleted subscription is gone.
    expect((await call(c, 'POST', `/deliveries/${delivery}/redeliver`)).body).toEqual(
      errorEnvelope('errors.not_found'),
    );
  });
});

describe('a write whose record goes between the check before the body and the write', () => {
  /** The route as mounted, with its path's record deleted right after the pipeline resolved it. */
  async function sendWhileItGoes(spec: RouteDefinition, id: string, body: unknown, drop: () => Promise<unknown>) {
    const resolve = spec.pathRecord as PathRecordResolver<unknown>;
    const app = createQcApp(c.t.deps);
    mountRoutes(app, c.t.deps, [
      {
        ...spec,
        pathRecord: async (deps, principal, params, request) => {
          const record = await resolve(deps, principal, params, request);
          await drop();
          return record;
        },
      },
    ]);
    const res = await app.handle(
      new Request(`http://localhost${pathFor(spec, id)}`, {
        method: spec.method,
        headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    return { status: res.status, body: await res.json() };
  }

  const route = (name: string) => routes.find((r) => r.name === name) as RouteDefinition;
  const as = (method: string, path: string, body?: unknown) => call(c, method, path, body);

  it('is a 404 for an offer, a template, a subscription and a redelivery, as when it was gone before (the write reads it again)', async () => {
    const button = (await as('GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
    const writes: [string, () => Promise<string>, (id: string) => Promise<unknown>, unknown][] = [
      [
        'qc.special_offers.update',
        async () => (await as('POST', `/booking_buttons/${button}/special_offers`, OFFER)).body.data.id,
        (id) => c.t.deps.db.sql`update special_offers set deleted_at = now() where external_id = ${id}`,
        { discount_percent: 6 },
      ],
      [
        'qc.special_offers.delete',
        async () => (await as('POST', `/booking_buttons/${button}/special_offers`, OFFER)).body.data.id,
        (id) => c.t.deps.db.sql`update special_offers set deleted_at = now() where external_id = ${id}`,
        {},
      ],
      [
        'qc.auto_email_templates.update',
        async () => (await as('POST', '/auto_email_templates', templateBody(c.demo))).body.data.id,
        (id) => c.t.deps.db.sql`delete from auto_email_templates where external_id = ${id}`,
        { title: 'Gone' },
      ],
      ...[
        'qc.subscriptions.update',
        'qc.subscriptions.delete',
        'qc.subscriptions.enable',
        'qc.subscriptions.rotate_secret',
      ].map((name): [string, () => Promise<string>, (id: string) => Promise<unknown>, unknown] => [
        name,
        async () => (await subscribe(c.t, c.token, HOOK)).id,
        (id) => c.t.deps.db.sql`update subscriptions set deleted_at = now() where external_id = ${id}`,
        name === 'qc.subscriptions.update' ? { event: 'booking.cancelled' } : {},
      ]),
      [
        'qc.deliveries.redeliver',
        () => deliveryOf(c.demo),
        (id) => c.t.deps.db.sql`update subscriptions set deleted_at = now()
          where id = (select subscription_id from deliveries where external_id = ${id})`,
        {},
      ],
    ];
    // The same mounting with nothing dropped writes: the 404s below are the record's going.
    const offer = (await as('POST', `/booking_buttons/${button}/special_offers`, OFFER)).body.data.id;
    const kept = await sendWhileItGoes(
      route('qc.special_offers.update'),
      offer,
      { discount_percent: 6 },
      async () => {},
    );
    expect(kept.status).toBe(200);
    const answers: Record<string, unknown> = {};
    for (const [name, make, drop, body] of writes) {
      const id = await make();
      answers[name] = (await sendWhileItGoes(route(name), id, body, () => drop(id))).body;
    }
    expect(answers).toEqual(Object.fromEntries(writes.map(([name]) => [name, errorEnvelope('errors.not_found')])));
  });
});
