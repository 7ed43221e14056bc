import { beforeAll, describe, expect, it } from 'bun:test';
import type { Demo, DemoProperty } from '../demo/demo.ts';
import { testAppPerFile } from '../testing/harness.ts';

/**
 * Every structure route that takes a property, room type or rate plan segment answers alike for the
 * external id and the partner code (spec 1.6), and a token of another customer cannot reach any of them.
 */
let demo: Demo;
let stranger: Demo;

const live = () => demo.properties[0] as DemoProperty;

const t = testAppPerFile();
beforeAll(async () => {
  [demo, stranger] = await Promise.all([t.demo(), t.demo()]);
});

type Case = { method: string; path: (p: string, rt: string, rp: string) => string; body?: unknown };
const cases: Case[] = [
  { method: 'GET', path: (p) => `/properties/${p}` },
  { method: 'PATCH', path: (p) => `/properties/${p}`, body: { partner_name: 'Same name' } },
  { method: 'PUT', path: (p) => `/properties/${p}/catalogue`, body: { rooms: [{ code: 'R', name: 'Room' }] } },
  { method: 'GET', path: (p) => `/properties/${p}/room_types` },
  { method: 'GET', path: (p, rt) => `/properties/${p}/room_types/${rt}` },
  { method: 'PATCH', path: (p, rt) => `/properties/${p}/room_types/${rt}`, body: { partner_name: 'Same room' } },
  { method: 'GET', path: (p) => `/properties/${p}/rate_plans` },
  { method: 'GET', path: (p, _rt, rp) => `/properties/${p}/rate_plans/${rp}` },
  { method: 'PATCH', path: (p, _rt, rp) => `/properties/${p}/rate_plans/${rp}`, body: { meal_plan: 'breakfast' } },
  {
    method: 'PUT',
    path: (p, _rt, rp) => `/properties/${p}/rate_plans/${rp}/pricing-model`,
    body: { sell_type: 'per_room' },
  },
];

describe('structure route segments', () => {
  for (const c of cases) {
    const label = `${c.method} ${c.path('{property}', '{room_type}', '{rate_plan}')}`;
    it(`${label} answers alike for external ids and partner codes`, async () => {
      const [room] = live().room_types;
      const plan = live().rate_plans.find((p) => p.partner_code === 'BAR');
      const byId = await t.request(c.method, `/v1/qc${c.path(live().id, room?.id ?? '', plan?.id ?? '')}`, {
        token: demo.personal_token,
        body: c.body,
      });
      const byCode = await t.request(
        c.method,
        `/v1/qc${c.path(live().partner_code ?? '', room?.partner_code ?? '', plan?.partner_code ?? '')}`,
        {
          token: demo.personal_token,
          body: c.body,
        },
      );
      expect(byId.status).toBeLessThan(300);
      expect(byCode.status).toBe(byId.status);
      expect(byCode.body).toEqual(byId.body);
    });

    it(`${label} is 404 for another customer's token`, async () => {
      const [room] = live().room_types;
      const [plan] = live().rate_plans;
      const res = await t.request(c.method, `/v1/qc${c.path(live().id, room?.id ?? '', plan?.id ?? '')}`, {
        token: stranger.personal_token,
        body: c.body,
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    });
  }

  it('creates room types and rate plans alike under the partner code of the property', async () => {
    const room = await t.request('POST', `/v1/qc/properties/${live().partner_code}/room_types`, {
      token: demo.personal_token,
      body: { name: 'By code' },
    });
    expect(room.status).toBe(201);
    const plan = await t.request('POST', `/v1/qc/properties/${live().partner_code}/rate_plans`, {
      token: demo.personal_token,
      body: { title: 'By code', room_type_ids: [room.body.data.id, 'DBL'], sell_type: 'per_room' },
    });
    expect(plan.status).toBe(201);
    expect([...plan.body.data.room_type_ids].sort()).toEqual([room.body.data.id, live().room_types[0]?.id].sort());
  });

  it("does not let a stranger create under this customer's property", async () => {
    const res = await t.request('POST', `/v1/qc/properties/${live().id}/room_types`, {
      token: stranger.personal_token,
      body: { name: 'Nope' },
    });
    expect(res.status).toBe(404);
    // Partner codes are per customer: the stranger's own demo codes differ, and ours resolve only for us.
    const code = await t.request('GET', `/v1/qc/properties/${live().partner_code}/room_types`, {
      token: stranger.personal_token,
    });
    expect(code.status).toBe(404);
  });
});
