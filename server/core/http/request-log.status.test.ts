import { beforeAll, describe, expect, it } from 'bun:test';
import { type BookingFixture, bookingFixture } from '../../bookings/test-fixtures.ts';
import { OPERATOR_TOKEN, testAppPerFile } from '../../testing/harness.ts';
import type { LogFields } from '../log.ts';

let fx: BookingFixture;
const t = testAppPerFile();
const logged: LogFields[] = [];
beforeAll(async () => {
  fx = await bookingFixture(t);
  const info = t.deps.log.info;
  t.deps.log.info = (msg, fields) => {
    if (msg === 'request' && fields) logged.push(fields);
    info(msg, fields);
  };
});

const ROUTE = 'qc.inbound_webhooks.receive';

/** qc_http_requests_total of the inbound webhook route by status, read through GET /metrics. */
async function countsByStatus(): Promise<Record<string, number>> {
  const text = (await t.request('GET', '/metrics', { token: OPERATOR_TOKEN })).text;
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^qc_http_requests_total\{([^}]*)\} (\d+)$/gm)) {
    const labels = m[1] ?? '';
    if (!labels.includes(`route="${ROUTE}"`) || !labels.includes('method="POST"')) continue;
    const status = /status="(\d+)"/.exec(labels)?.[1] ?? '?';
    counts[status] = (counts[status] ?? 0) + Number(m[2]);
  }
  return counts;
}

/** Waits until the request's log line is written (onAfterResponse runs after the answer is handed back). */
async function loggedLine(requestId: string | null): Promise<LogFields | undefined> {
  for (let i = 0; i < 100; i++) {
    const line = logged.find((l) => l.request_id === requestId);
    if (line) return line;
    await Bun.sleep(5);
  }
  return undefined;
}

describe('the request log and qc_http_requests_total', () => {
  it('record 422 for a stored-value refusal the database raised (a total of 1e300, past the numeric column), not 500', async () => {
    const before = await countsByStatus();
    const res = await t.request('POST', '/v1/qc/inbound/webhooks?channel=BDC', {
      token: fx.token,
      body: {
        external_property_id: fx.property,
        reservation_id: 'R-overflow',
        guest: { first_name: 'Ola', last_name: 'Nordmann' },
        checkin_date: '2026-12-01',
        checkout_date: '2026-12-02',
        rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0] }],
        total_price: { amount: 1e300 },
      },
    });
    expect(res.status).toBe(422);
    const line = await loggedLine(res.headers.get('x-qc-request-id'));
    expect(line?.status).toBe(422);
    const after = await countsByStatus();
    expect((after['422'] ?? 0) - (before['422'] ?? 0)).toBe(1);
    expect(after['500'] ?? 0).toBe(before['500'] ?? 0);
  });

  it('record the status of an ordinary refusal as sent', async () => {
    const res = await t.request('POST', '/v1/qc/inbound/webhooks', { token: fx.token, body: {} });
    expect(res.status).toBe(400);
    expect((await loggedLine(res.headers.get('x-qc-request-id')))?.status).toBe(400);
  });
});
