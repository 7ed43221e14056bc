import { describe, expect, it } from 'bun:test';
import type { Reply } from '../testing/harness.ts';
import { inventoryTest, postPlanRates } from './test-fixtures.ts';

const { t, f } = inventoryTest();
const days = { date_from: '2026-07-01', date_to: '2026-07-02' };
const NO_SUCH_ROOM = '11111111-2222-4333-8444-555555555555';

const push = (endpoint: string, values: unknown[]) =>
  t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/${endpoint}`, {
    token: f.token,
    body: { values },
  });

/** Asserts the 422's key and that each field it answers beside the envelope is in the API document (the typed client's). */
async function expectDescribed(res: Reply, key: string, path: string) {
  expect(res.status).toBe(422);
  expect(res.body.message).toBe(key);
  const extra = Object.keys(res.body).filter((field) => !['status', 'message', 'detail'].includes(field));
  expect(extra.length).toBeGreaterThan(0);
  const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
  const schema =
    doc.paths[`/v1/qc/properties/{property}${path}`].post.responses['422'].content['application/json'].schema;
  expect(Object.keys(schema.allOf[1].properties)).toEqual(expect.arrayContaining(extra));
}

describe('inventory refusals with fields beside the key', () => {
  it('are documented by every push: rows, and unknown_fields where a row can lose its payload', async () => {
    const pair = { room_type_id: f.rooms.double.external_id, rate_plan_id: f.plans.room.external_id };
    for (const [endpoint, row, key] of [
      ['availability', { room_type_id: NO_SUCH_ROOM, ...days, availability: 1 }, 'errors.qc.unknown_room_type'],
      ['rates', { ...pair, ...days, price: 1 }, 'errors.qc.rate_or_prices_required'],
      ['restrictions', { ...pair, ...days, min_stya: 2 }, 'errors.qc.restriction_payload_empty'],
    ] as const) {
      const res = await push(endpoint, [row]);
      expect(Object.keys(res.body)).toContain('rows');
      await expectDescribed(res, key, `/inventory/${endpoint}`);
    }
  });

  it('are documented by every push and the per-plan write: batch_too_large with limit, max and actual', async () => {
    const pair = { room_type_id: f.rooms.double.external_id, rate_plan_id: f.plans.room.external_id };
    const tooMany = <T>(row: T) => Array.from({ length: 1001 }, () => row);
    for (const [endpoint, row] of [
      ['availability', { room_type_id: f.rooms.double.external_id, ...days, availability: 1 }],
      ['rates', { ...pair, ...days, rate: 1 }],
      ['restrictions', { ...pair, ...days, stop_sell: true }],
    ] as const) {
      await expectDescribed(await push(endpoint, tooMany(row)), 'errors.qc.batch_too_large', `/inventory/${endpoint}`);
    }
    await expectDescribed(
      await postPlanRates(t, f, f.plans.room.external_id, tooMany({ date: '2026-07-01', prices: { ROOM: 1 } })),
      'errors.qc.batch_too_large',
      '/rate_plans/{ratePlan}/rates',
    );
  });
});
