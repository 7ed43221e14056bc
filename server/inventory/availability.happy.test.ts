import { beforeAll, describe, expect, it } from 'bun:test';
import { ManualClock } from '../core/clock.ts';
import { startTestApp, type TestApp } from '../testing/harness.ts';
import { type InventoryFixture, inventoryFixture } from './test-fixtures.ts';

let t: TestApp;
let f: InventoryFixture;

beforeAll(async () => {
  // Europe/Lisbon: today is 2026-06-15, so the window runs 2026-06-14 .. 2028-06-15.
  t = await startTestApp({ clock: new ManualClock('2026-06-15T12:00:00Z') });
  f = await inventoryFixture(t);
});

const push = (values: unknown[], property = f.live.external_id) =>
  t.request('POST', `/v1/qc/properties/${property}/inventory/availability`, { token: f.token, body: { values } });
const read = (from: string, to: string) =>
  t.request('GET', `/v1/qc/properties/${f.live.external_id}/availability`, { token: f.token, query: { from, to } });

describe('POST /inventory/availability', () => {
  it('writes free rooms per day and reads them back per room and date', async () => {
    const res = await push([{ room_type_id: f.rooms.double.external_id, date_from: '2026-07-01', date_to: '2026-07-03', availability: 4 }]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      status: 'ok',
      message: 'accepted',
      data: { written: 3, unchanged: 0, skipped_out_of_window: 0, dry: false, warnings: [] },
    });
    const back = await read('2026-06-30', '2026-07-04');
    expect(back.status).toBe(200);
    const double = back.body.data.rooms.find((r: { room_type_id: string }) => r.room_type_id === f.rooms.double.external_id);
    expect(double.dates).toEqual({ '2026-07-01': 4, '2026-07-02': 4, '2026-07-03': 4 });
  });
});
