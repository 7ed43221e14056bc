import { describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

/**
 * Smoke suite on the embedded default (PGlite, in-process queue, limiter and caches), run by `npm test`
 * with DATABASE_URL and REDIS_URL unset. The full suite runs on PostgreSQL and Redis.
 */

const t = testAppPerFile();
const demo = perFile(() => t.demo());

describe('embedded backend', () => {
  it('runs on PGlite', () => {
    expect(t.deps.db.kind).toBe('pglite');
  });

  it('issues tokens and serves the demo properties', async () => {
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    const res = await t.request('GET', '/v1/qc/properties', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.properties).toHaveLength(2);
    const personal = await t.request('GET', `/v1/qc/properties/${demo.properties[0]?.partner_code}`, {
      token: demo.personal_token,
    });
    expect(personal.body.data.mode).toBe('live');
  });

  it('renders errors in the envelope with a support ticket', async () => {
    const res = await t.request('GET', '/v1/qc/nowhere', { token: demo.personal_token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorEnvelope('errors.not_found'));
    expect(res.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
  });

  it('writes the calendar: pushes are stored, read back, and a repeat is unchanged', async () => {
    const property = demo.properties[0] as unknown as {
      partner_code: string;
      room_types: { id: string }[];
      rate_plans: { id: string; room_type_id: string; sell_type: string }[];
    };
    const room = property.room_types[0]?.id as string;
    const plan = property.rate_plans.find((p) => p.room_type_id === room && p.sell_type === 'per_room')?.id;
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const push = (endpoint: string, values: unknown[]) =>
      t.request('POST', `/v1/qc/properties/${property.partner_code}/inventory/${endpoint}`, {
        token: demo.personal_token,
        body: { values },
      });
    const range = { room_type_id: room, date_from: day(40), date_to: day(42) };
    const pushes = [
      push('availability', [{ ...range, availability: 2 }]),
      push('rates', [{ ...range, rate_plan_id: plan, rate: 151.5 }]),
      push('restrictions', [{ ...range, rate_plan_id: plan, min_los: 2, stop_sell: true }]),
    ];
    for (const res of await Promise.all(pushes)) expect(res.body.data).toMatchObject({ written: 3, unchanged: 0 });
    const again = await push('availability', [{ ...range, availability: 2 }]);
    expect(again.body.data).toMatchObject({ written: 0, unchanged: 3 });

    const read = await t.request('GET', `/v1/qc/properties/${property.partner_code}/availability`, {
      token: demo.personal_token,
      query: { from: day(40), to: day(43) },
    });
    const dates = read.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === room)?.dates;
    expect(dates).toMatchObject({ [day(40)]: 2, [day(41)]: 2, [day(42)]: 2 });
    expect(dates[day(43)]).not.toBe(2);
    const [rate] = await t.deps.db.sql<{ prices: Record<string, number> }>`
      select r.prices from rates r join rate_plans p on p.id = r.rate_plan_id join room_types rt on rt.id = r.room_type_id
      where p.external_id = ${plan as string} and rt.external_id = ${room} and r.date = ${day(41)}::date`;
    expect(rate?.prices).toEqual({ ROOM: 151.5 });
  });
});
