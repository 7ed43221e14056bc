import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { calendarSnapshot, type InventoryFixture, inventoryFixture, inventoryTest } from './test-fixtures.ts';

let stranger: InventoryFixture;

const { t, f } = inventoryTest();
beforeAll(async () => {
  stranger = await inventoryFixture(t);
});

const days = { date_from: '2026-07-01', date_to: '2026-07-01' };

describe('inventory access', () => {
  it('answers 404 for another customer property on every inventory route, and writes nothing there', async () => {
    const before = await calendarSnapshot(t.deps.db, stranger.demo.customer_id);
    const base = `/v1/qc/properties/${stranger.live.external_id}`;
    const room = stranger.rooms.double.external_id;
    const plan = stranger.plans.room.external_id;
    const calls = [
      t.request('POST', `${base}/inventory/availability`, {
        token: f.token,
        body: { values: [{ room_type_id: room, ...days, availability: 1 }] },
      }),
      t.request('POST', `${base}/inventory/rates`, {
        token: f.token,
        body: { values: [{ room_type_id: room, rate_plan_id: plan, ...days, rate: 1 }] },
      }),
      t.request('POST', `${base}/inventory/restrictions`, {
        token: f.token,
        body: { values: [{ room_type_id: room, rate_plan_id: plan, ...days, stop_sell: true }] },
      }),
      t.request('GET', `${base}/availability`, { token: f.token, query: { from: '2026-07-01', to: '2026-07-02' } }),
      t.request('GET', `${base}/rate_plans/${plan}/rates`, {
        token: f.token,
        query: { from: '2026-07-01', to: '2026-07-02' },
      }),
      t.request('POST', `${base}/rate_plans/${plan}/rates`, {
        token: f.token,
        body: { values: [{ date: '2026-07-01', prices: { ROOM: 1 } }] },
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorEnvelope('errors.not_found'));
    }
    expect(await calendarSnapshot(t.deps.db, stranger.demo.customer_id)).toEqual(before);
  });

  it('reads another customer room type in a row as unknown, never as a property of the caller', async () => {
    const res = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/availability`, {
      token: f.token,
      body: { values: [{ room_type_id: stranger.rooms.double.external_id, ...days, availability: 1 }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.unknown_room_type');
  });

  it('answers 404 for a rate plan of another customer named on the caller own property', async () => {
    const res = await t.request(
      'POST',
      `/v1/qc/properties/${f.live.external_id}/rate_plans/${stranger.plans.room.external_id}/rates`,
      {
        token: f.token,
        body: { values: [{ date: '2026-07-01', prices: { ROOM: 1 } }] },
      },
    );
    expect(res.status).toBe(404);
  });

  it('lets an endpoint allow-list narrow a token to one push', async () => {
    const { token } = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['inventory.write', 'inventory.read'],
      property_ids: [f.live.external_id],
      endpoint_scopes: ['qc.inventory.availability'],
    });
    const base = `/v1/qc/properties/${f.live.external_id}`;
    const allowed = await t.request('POST', `${base}/inventory/availability`, {
      token,
      body: { values: [{ room_type_id: f.rooms.double.external_id, ...days, availability: 1 }] },
    });
    expect(allowed.status).toBe(202);
    const refused = await t.request('POST', `${base}/inventory/restrictions`, {
      token,
      body: {
        values: [
          {
            room_type_id: f.rooms.double.external_id,
            rate_plan_id: f.plans.room.external_id,
            ...days,
            stop_sell: true,
          },
        ],
      },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('errors.qc.endpoint_not_allowed');
    const read = await t.request('GET', `${base}/availability`, {
      token,
      query: { from: '2026-07-01', to: '2026-07-01' },
    });
    expect(read.status).toBe(403);
  });

  it('lets inventory.read read but not push', async () => {
    const { token } = await t.client({
      customer_id: f.demo.customer_id,
      scopes: ['inventory.read'],
      property_ids: [f.live.external_id],
    });
    const base = `/v1/qc/properties/${f.live.external_id}`;
    expect(
      (await t.request('GET', `${base}/availability`, { token, query: { from: '2026-07-01', to: '2026-07-01' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.request('GET', `${base}/rate_plans/${f.plans.room.external_id}/rates`, {
          token,
          query: { from: '2026-07-01', to: '2026-07-01' },
        })
      ).status,
    ).toBe(200);
    const push = await t.request('POST', `${base}/inventory/availability`, {
      token,
      body: { values: [{ room_type_id: f.rooms.double.external_id, ...days, availability: 1 }] },
    });
    expect(push.status).toBe(403);
    expect(push.body.message).toBe('errors.qc.insufficient_scope');
  });
});
