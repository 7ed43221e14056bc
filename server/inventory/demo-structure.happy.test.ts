import { beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import type { DemoProperty } from '../demo/demo.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Inventory on the structure the structure routes build (the demo step): real vocabularies computed from bed
 * capacity, a real child plan. Pushes go through an Idempotency-Key like a careful partner's would.
 */
let live: DemoProperty;

const t = testAppPerFile({ clock: new ManualClock('2026-06-15T12:00:00Z') });
const demo = perFile(() => t.demo());
beforeAll(async () => {
  live = demo.properties[0] as DemoProperty;
});

const base = () => `/v1/qc/properties/${live.external_property_id}`;
const entry = (plan: string, room: string) => {
  const roomId = live.room_types.find((r) => r.partner_code === room)?.id;
  const found = live.rate_plans.find((p) => p.partner_code === plan && p.room_type_id === roomId);
  if (!found) throw new Error(`demo has no ${plan} on ${room}`);
  return found;
};

describe('inventory on the demo structure', () => {
  it('prices the per_person plan by the manual codes of its vocabulary and reads them back resolved', async () => {
    const pp = entry('PP', 'DBL');
    const show = await t.request('GET', `${base()}/rate_plans/${pp.id}`, { token: demo.personal_token });
    expect(show.status).toBe(200);
    const pair = show.body.data.rate_plans.find((m: { room_type_id: string }) => m.room_type_id === pp.room_type_id);
    const manual: string[] = pair.occupancies
      .filter((o: { kind: string }) => o.kind === 'manual')
      .map((o: { code: string }) => o.code);
    expect(manual).toContain('A1');
    const prices = Object.fromEntries(manual.map((code, i) => [code, 50 + i]));
    const res = await t.request('POST', `${base()}/inventory/rates`, {
      token: demo.personal_token,
      body: {
        values: [
          {
            room_type_id: pp.room_type_id,
            rate_plan_id: pp.id,
            date_from: '2026-07-01',
            date_to: '2026-07-03',
            prices,
          },
        ],
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ written: 3, warnings: [] });
    const read = await t.request('GET', `${base()}/rate_plans/PP/rates`, {
      token: demo.personal_token,
      query: { from: '2026-07-01', to: '2026-07-03', consolidated: '1' },
    });
    const dbl = read.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === pp.room_type_id);
    expect(dbl.periods).toEqual([{ from: '2026-07-01', to: '2026-07-03', prices: expect.objectContaining(prices) }]);
  });

  it('derives the demo child plan (-10%) from its per_room parent', async () => {
    const bar = entry('BAR', 'APT');
    const res = await t.request('POST', `${base()}/inventory/rates`, {
      token: demo.personal_token,
      body: {
        values: [
          { room_type_id: 'APT', rate_plan_id: 'BAR', date_from: '2026-07-10', date_to: '2026-07-10', rate: 250 },
        ],
      },
    });
    expect(res.body.data.written).toBe(1);
    const child = await t.request('GET', `${base()}/rate_plans/NRF/rates`, {
      token: demo.personal_token,
      query: { from: '2026-07-10', to: '2026-07-10' },
    });
    const apt = child.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === bar.room_type_id);
    expect(apt.values).toEqual([{ date: '2026-07-10', prices: { ROOM: 225 }, restrictions: {} }]);
    expect(child.body.data.parent_rate_plan_id).toBe(bar.id);
  });

  it('replays a push sent twice with one Idempotency-Key instead of pushing again', async () => {
    const body = { values: [{ room_type_id: 'DBL', date_from: '2026-07-20', date_to: '2026-07-21', availability: 2 }] };
    const headers = { 'idempotency-key': `inventory-${crypto.randomUUID()}` };
    const first = await t.request('POST', `${base()}/inventory/availability`, {
      token: demo.personal_token,
      body,
      headers,
    });
    expect(first.status).toBe(202);
    expect(first.body.data.written).toBe(2);
    const events = async () =>
      (
        await t.deps.db.sql<{ n: number }>`select count(*)::int as n from outbox_events
        where customer_id = ${demo.customer_id} and type = 'inventory.push.completed'`
      )[0]?.n;
    const before = await events();
    const again = await t.request('POST', `${base()}/inventory/availability`, {
      token: demo.personal_token,
      body,
      headers,
    });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await events()).toBe(before);
  });
});
