import { describe, expect, it } from 'bun:test';
import { perFile, type Reply, type RequestOptions, testAppPerFile } from '../../testing/harness.ts';
import { ManualClock } from '../clock.ts';
import { holdPartnerCode, newPropertyBody } from './test-support.ts';

/**
 * Spec 8.3.3: a replay is the first answer again — the same status, the same headers and the same body —
 * plus Idempotency-Replayed and Idempotency-Original-Timestamp. Pinned for one route of each answer status,
 * because a replay leaves the pipeline through an error hook where Elysia once turned a stored 200 into 500.
 */
const perRequest = /^(x-qc-request-id|x-ratelimit-.*|retry-after|idempotency-.*|date|content-length)$/;

function operationHeaders(res: Reply): [string, string][] {
  return [...res.headers].filter(([name]) => !perRequest.test(name)).sort(([a], [b]) => (a < b ? -1 : 1));
}

function expectReplayOf(again: Reply, first: Reply, originalAt: string) {
  expect(again.status).toBe(first.status);
  expect(again.text).toBe(first.text);
  expect(operationHeaders(again)).toEqual(operationHeaders(first));
  expect(again.headers.get('idempotency-replayed')).toBe('true');
  expect(again.headers.get('idempotency-original-timestamp')).toBe(originalAt);
  expect(first.headers.get('idempotency-replayed')).toBeNull();
}

describe('idempotent replays keep the first status, headers and body', () => {
  let serial = 0;

  const t = testAppPerFile({ clock: new ManualClock('2030-05-01T08:00:00Z') });
  const demo = perFile(() => t.demo());

  async function sendTwice(method: string, path: string, options: RequestOptions) {
    const headers = { ...options.headers, 'idempotency-key': `replay-${++serial}` };
    const first = await t.request(method, path, { token: demo.personal_token, ...options, headers });
    const originalAt = t.clock.now().toISOString();
    t.clock.advance(60_000);
    const again = await t.request(method, path, { token: demo.personal_token, ...options, headers });
    return { first, again, originalAt };
  }

  it('replays a 200 (PATCH property) as a 200', async () => {
    const property = demo.properties[0]?.id;
    const { first, again, originalAt } = await sendTwice('PATCH', `/v1/qc/properties/${property}`, {
      body: { partner_name: 'Replay PMS' },
    });
    expect(first.status).toBe(200);
    expectReplayOf(again, first, originalAt);
  });

  it('replays a 200 (PUT catalogue) as a 200', async () => {
    const property = demo.properties[0]?.id;
    const { first, again, originalAt } = await sendTwice('PUT', `/v1/qc/properties/${property}/catalogue`, {
      body: { rooms: [{ code: 'DBL', name: 'Double' }], rates: [], meals: [] },
    });
    expect(first.status).toBe(200);
    expectReplayOf(again, first, originalAt);
  });

  it('replays a 201 (POST property) as a 201', async () => {
    const { first, again, originalAt } = await sendTwice('POST', '/v1/qc/properties', {
      body: newPropertyBody('REPLAY'),
    });
    expect(first.status).toBe(201);
    expectReplayOf(again, first, originalAt);
  });

  it('replays a 202 (POST catalogue-sync) as a 202', async () => {
    const { first, again, originalAt } = await sendTwice('POST', '/v1/qc/catalogue-sync', {
      body: { properties: [{ property_id: demo.properties[0]?.partner_code, rooms: [], rates: [], meals: [] }] },
    });
    expect(first.status).toBe(202);
    expectReplayOf(again, first, originalAt);
  });

  it('replays a 409 and a 422 as themselves, support ticket included', async () => {
    const taken = demo.properties[1]?.partner_code;
    const conflict = await sendTwice('PATCH', `/v1/qc/properties/${demo.properties[0]?.id}`, {
      body: { partner_code: taken },
    });
    expect(conflict.first.status).toBe(409);
    expectReplayOf(conflict.again, conflict.first, conflict.originalAt);
    expect(conflict.again.headers.get('x-qc-support-ticket')).toBe(conflict.first.headers.get('x-qc-support-ticket'));

    const invalid = await sendTwice('POST', '/v1/qc/properties', { body: { type_id: 1 } });
    expect(invalid.first.status).toBe(422);
    expectReplayOf(invalid.again, invalid.first, invalid.originalAt);
  });

  it('answers a concurrent same-key waiter with the first 200, status and headers included', async () => {
    const code = `WAIT-${++serial}`;
    const release = await holdPartnerCode(t, demo.customer_id, code);
    const headers = { 'idempotency-key': `waiter-${serial}` };
    const options = { token: demo.personal_token, body: { partner_code: code }, headers };
    const path = `/v1/qc/properties/${demo.properties[0]?.id}`;
    const first = t.request('PATCH', path, options);
    // The first request holds the key while it waits on the held partner code; the second waits on the key.
    await Bun.sleep(50);
    const waiter = t.request('PATCH', path, options);
    await Bun.sleep(50);
    await release();
    const answers = await Promise.all([first, waiter]);
    // Under load the second request may claim the key first; either way exactly one of them ran the
    // operation and the other replays it with the same status, headers and body.
    const replays = answers.filter((r) => r.headers.get('idempotency-replayed') === 'true');
    const runs = answers.filter((r) => r.headers.get('idempotency-replayed') === null);
    expect(replays.length).toBe(1);
    expect(runs.length).toBe(1);
    const [ran, replayed] = [runs[0] as Reply, replays[0] as Reply];
    expect(ran.status).toBe(200);
    expect(replayed.status).toBe(200);
    expect(replayed.text).toBe(ran.text);
    expect(operationHeaders(replayed)).toEqual(operationHeaders(ran));
  });
});
