import { beforeAll, describe, expect, it } from 'bun:test';
import { call, configTest } from '../config-surfaces/test-fixtures.ts';
import { mountRoutes } from '../core/http/mount-routes.ts';
import { createQcApp } from '../core/http/qc-app.ts';
import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { routeCatalogue } from '../route-table.ts';
import { createSpecialOfferRoute } from '../special-offers/create-special-offer.ts';
import { listSpecialOffersRoute } from '../special-offers/list-special-offers.ts';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { pathButton } from './path-button.ts';
import type { ResolvedButton } from './store.ts';

/**
 * README (Configuration surfaces, Authorization): a button of another customer is 404 like a missing one, and the
 * checks run before the body is read. `POST /booking_buttons/<another customer's button>/special_offers {}`
 * answered 422 (name required): the button was looked up by the handler, after the body. Walked over every route
 * under /booking_buttons/:button, so a route added there later is held to it too.
 */
const c = configTest();
let mine: string;
let others: string;
const routes = routeCatalogue.filter((r) => r.path.startsWith('/booking_buttons/:button'));

beforeAll(async () => {
  mine = (await call(c, 'GET', `/properties/${c.property}/booking_buttons`)).body.data.booking_buttons[0].id;
  const other = await c.t.request('GET', `/v1/qc/properties/${c.other.properties[0]?.id}/booking_buttons`, {
    token: c.other.personal_token,
  });
  others = other.body.data.booking_buttons[0].id;
});

/** What a request may carry that fails validation: for a read, paging; for a write, bodies of every kind of wrong. */
const invalidInputs = (method: string) =>
  method === 'GET'
    ? [{ query: { per_page: 0 } }, { query: { page: 'x' } }]
    : [{ body: {} }, { raw: '{bad' }, { body: { name: 42, rate_plans_ids: 'x', unknown_field: true } }];

describe('routes under /booking_buttons/:button answer 404 for a button the caller may not see, before the body', () => {
  it('walks the routes under a button, a write among them', () => {
    expect(routes.map((r) => `${r.method} ${r.name}`).sort()).toEqual([
      'GET qc.special_offers.list',
      'POST qc.special_offers.create',
    ]);
  });

  for (const spec of routes) {
    it(`${spec.method} ${spec.path} (${spec.name}): 404 for another customer's button and an unknown id`, async () => {
      const inputs = invalidInputs(spec.method);
      // The same inputs on the caller's own button are refused for what they are: the 404s below are the button's.
      for (const input of inputs) {
        const own = await c.t.request(spec.method, `/v1/qc${spec.path.replace(':button', mine)}`, {
          token: c.token,
          ...input,
        });
        expect(own.status).toBe(422);
      }
      const buttons = { others, unknown: '00000000-0000-4000-8000-000000000000', notAnId: 'not-an-id' };
      const seen: Record<string, number[]> = {};
      for (const [which, button] of Object.entries(buttons)) {
        seen[which] = [];
        for (const input of inputs) {
          const res = await c.t.request(spec.method, `/v1/qc${spec.path.replace(':button', button)}`, {
            token: c.token,
            ...input,
          });
          seen[which]?.push(res.status);
          if (res.status === 404) expect(res.body).toEqual(errorEnvelope('errors.not_found'));
        }
      }
      const all404 = inputs.map(() => 404);
      expect(seen).toEqual({ others: all404, unknown: all404, notAnId: all404 });
    });
  }

  it('still answers 401 without a token before the 404', async () => {
    const res = await c.t.request('POST', `/v1/qc/booking_buttons/${others}/special_offers`, { raw: '{bad' });
    expect(res.body).toEqual(errorEnvelope('errors.unauthorized'));
  });

  it('claims no Idempotency-Key for a button refused before the body', async () => {
    const headers = { 'idempotency-key': 'button-refused-first' };
    const refused = await call(c, 'POST', `/booking_buttons/${others}/special_offers`, {}, headers);
    expect(refused.status).toBe(404);
    // The same key on the caller's own button runs: nothing was kept under it for the refusal.
    const offer = {
      name: 'Keyed',
      active_from_date: '2026-07-01',
      active_to_date: '2026-07-31',
      rate_plans_ids: ['BAR'],
      discount_percent: 5,
    };
    const created = await call(c, 'POST', `/booking_buttons/${mine}/special_offers`, offer, headers);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotency-replayed')).toBeNull();
  });
});

describe('the handler gets the button the pipeline resolved', () => {
  it('looks the button up once per request, and the handler acts on that row', async () => {
    // A second button of the same property: the resolver below answers it for the first one's path, so an
    // answer about the second shows the handler took the pipeline's row rather than looking the path up again.
    // Its url_key is unique across the table: a fresh one, so the suite can run again on the same database.
    const urlKey = `second-engine-${crypto.randomUUID()}`;
    const [second] = await c.t.deps.db.sql<{ external_id: string }>`
      insert into booking_buttons (property_id, name, url_key, url_link, currency_code, lng_locale)
      select property_id, 'Second engine', ${urlKey}, ${`https://book.example.com/${urlKey}`}, currency_code,
        lng_locale
      from booking_buttons where external_id = ${mine}
      returning external_id::text`;
    const lookups: string[] = [];
    const substituted: PathRecordResolver<ResolvedButton> = async (deps, principal, params, request) => {
      lookups.push(params.button as string);
      return pathButton(deps, principal, { button: second?.external_id as string }, request);
    };
    const app = createQcApp(c.t.deps);
    mountRoutes(app, c.t.deps, [
      { ...createSpecialOfferRoute, pathRecord: substituted },
      { ...listSpecialOffersRoute, pathRecord: substituted },
    ]);
    const send = async (method: string, body?: unknown) => {
      const res = await app.handle(
        new Request(`http://localhost/v1/qc/booking_buttons/${mine}/special_offers`, {
          method,
          headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: res.status, body: (await res.json()) as any };
    };
    const created = await send('POST', {
      name: 'Once',
      active_from_date: '2026-07-01',
      active_to_date: '2026-07-31',
      rate_plans_ids: ['BAR'],
      discount_percent: 7,
    });
    expect(created.status).toBe(201);
    expect(created.body.data.booking_button_id).toBe(second?.external_id as string);
    expect(lookups).toEqual([mine]);
    const listed = await send('GET');
    expect(listed.body.data.special_offers.map((o: { id: string }) => o.id)).toEqual([created.body.data.id]);
    expect(lookups).toEqual([mine, mine]);
  });
});
