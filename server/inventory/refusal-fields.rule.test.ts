import { describe, expect, it } from 'bun:test';
import { inventoryTest } from './test-fixtures.ts';

const { t, f } = inventoryTest();
const days = { date_from: '2026-07-01', date_to: '2026-07-02' };
const NO_SUCH_ROOM = '11111111-2222-4333-8444-555555555555';

/** The fields the API document describes beside status, message and detail for a push's 422 (the typed client's). */
async function documented422Fields(endpoint: string): Promise<string[]> {
  const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
  const operation = doc.paths[`/v1/qc/properties/{property}/inventory/${endpoint}`].post;
  const schema = operation.responses['422'].content['application/json'].schema;
  return Object.keys(schema.allOf[1].properties).filter((field) => field !== 'message');
}

describe('inventory push refusals with fields beside the key', () => {
  it('are documented by every push: rows, and unknown_fields where a row can lose its payload', async () => {
    const pair = { room_type_id: f.rooms.double.external_id, rate_plan_id: f.plans.room.external_id };
    for (const [endpoint, row, key] of [
      ['availability', { room_type_id: NO_SUCH_ROOM, ...days, availability: 1 }, 'errors.qc.unknown_room_type'],
      ['rates', { ...pair, ...days, price: 1 }, 'errors.qc.rate_or_prices_required'],
      ['restrictions', { ...pair, ...days, min_stya: 2 }, 'errors.qc.restriction_payload_empty'],
    ] as const) {
      const res = await t.request('POST', `/v1/qc/properties/${f.live.external_id}/inventory/${endpoint}`, {
        token: f.token,
        body: { values: [row] },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(key);
      const extra = Object.keys(res.body).filter((field) => !['status', 'message', 'detail'].includes(field));
      expect(extra).toContain('rows');
      expect(await documented422Fields(endpoint)).toEqual(expect.arrayContaining(extra));
    }
  });
});
