import { describe, expect, it } from 'bun:test';
import { OPERATOR_TOKEN, perFile, testAppPerFile } from '../testing/harness.ts';

const t = testAppPerFile();
const demo = perFile(() => t.demo());

const scrape = async () => {
  const res = await t.request('GET', '/metrics', { token: OPERATOR_TOKEN });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text;
};

/** Sum of a metric's samples whose labels include `labels` (0 when there is none yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = line.match(/^([a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

const day = (offset: number) => new Date(t.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

describe('GET /metrics', () => {
  it('takes the operator token: anything else is a 401', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(401);
    expect((await t.request('GET', '/metrics', { token: demo.personal_token })).status).toBe(401);
  });

  it('moves the request, latency, actor, day-row, idempotency and legacy series after traffic', async () => {
    const before = await scrape();
    const token = demo.personal_token;
    const live = demo.properties.find((p) => p.mode === 'live')!.external_property_id;

    expect((await t.request('GET', '/v1/qc/properties', { token })).status).toBe(200);
    expect((await t.request('GET', '/v1/qc/properties')).status).toBe(401);
    const roomTypes = await t.request('GET', `/v1/qc/properties/${live}/room_types`, { token });
    const roomType = roomTypes.body.data.room_types[0].id as string;
    const push = {
      token,
      body: { values: [{ room_type_id: roomType, date_from: day(3), date_to: day(5), availability: 4 }] },
      headers: { 'idempotency-key': `metrics-${crypto.randomUUID()}` },
    };
    const first = await t.request('POST', `/v1/qc/properties/${live}/inventory/availability`, push);
    expect(first.status).toBe(202);
    const replayed = await t.request('POST', `/v1/qc/properties/${live}/inventory/availability`, push);
    expect(replayed.headers.get('idempotency-replayed')).toBe('true');
    await t.request('GET', `/api/pms/v1/nosuch/method?api_key=${demo.legacy_api_key}`);

    const after = await scrape();
    const moved = (name: string, labels?: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('qc_http_requests_total', { route: 'qc.properties.list', method: 'GET', status: '200' })).toBe(1);
    expect(moved('qc_http_requests_total', { route: 'qc.properties.list', status: '401' })).toBe(1);
    expect(moved('qc_http_request_duration_seconds_count', { route: 'qc.properties.list', status: '200' })).toBe(1);
    expect(moved('qc_http_request_duration_seconds_bucket', { route: 'qc.properties.list', le: '+Inf' })).toBe(2);
    expect(moved('qc_actor_turn_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'qc_actor_queue_depth')).toBe(0);
    expect(moved('qc_calendar_day_rows_written_total', { endpoint: 'qc.inventory.availability' })).toBe(3);
    expect(moved('qc_idempotency_replays_total')).toBe(1);
    expect(moved('qc_legacy_requests_total', { endpoint: 'unknown' })).toBe(1);
    expect(moved('qc_legacy_request_duration_seconds_count', { endpoint: 'unknown' })).toBe(1);
    for (const name of ['qc_outbox_lag_seconds', 'qc_webhook_deliveries', 'qc_legacy_shadow_comparisons_total'])
      expect(after).toContain(`# TYPE ${name} `);
    expect(after).toContain('qc_webhook_deliveries{status="pending"}');
  });

  it('labels legacy requests by the method table, so paths a scanner tries add no series', async () => {
    const scanned = Array.from({ length: 20 }, () => crypto.randomUUID().slice(0, 8));
    for (const name of scanned) await t.request('GET', `/api/pms/v1/${name}/${name}?api_key=${demo.legacy_api_key}`);
    await t.request('GET', `/api/pms/v1/Booking/GETBOOKINGS?api_key=${demo.legacy_api_key}`);
    const after = await scrape();
    const endpoints = new Set(
      [...after.matchAll(/^qc_legacy_requests_total\{endpoint="([^"]*)"/gm)].map((m) => m[1] as string),
    );
    expect(scanned.filter((name) => [...endpoints].some((e) => e.includes(name)))).toEqual([]);
    expect(endpoints.has('unknown')).toBe(true);
    // Any letter case of a real method counts under its one spelling.
    expect(endpoints.has('booking/getBookings')).toBe(true);
    expect(endpoints.has('Booking/GETBOOKINGS')).toBe(false);
  });

  it('does not store an incident for a path no route serves, while a real 404 still gets its ticket', async () => {
    const unknown = await t.request('GET', '/v1/qc/no/such/route', { token: demo.personal_token });
    expect(unknown.status).toBe(404);
    const ticket = unknown.headers.get('x-qc-support-ticket') as string;
    expect(ticket).toMatch(/^QC-/);
    const missing = await t.request('GET', '/v1/qc/properties/00000000-0000-4000-8000-000000000000', {
      token: demo.personal_token,
    });
    // Incidents are stored off the response path: wait for the later one, then the earlier one would be there.
    const stored = missing.headers.get('x-qc-support-ticket') as string;
    for (let i = 0; i < 50 && (await t.ops('GET', `/ops/incidents/${stored}`)).status !== 200; i++) await Bun.sleep(20);
    expect((await t.ops('GET', `/ops/incidents/${stored}`)).status).toBe(200);
    expect((await t.ops('GET', `/ops/incidents/${ticket}`)).status).toBe(404);
  });
});
