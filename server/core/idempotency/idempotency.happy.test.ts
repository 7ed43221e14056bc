import { beforeAll, describe, expect, it } from 'bun:test';
import { perFile, type Reply, testAppPerFile } from '../../testing/harness.ts';
import { REDIS_BACKENDS } from '../../testing/redis-backends.ts';
import { ManualClock } from '../clock.ts';
import { countPartnerCode, newPropertyBody } from './test-support.ts';

/**
 * Spec 8.3 rules 1-3, 5 and 6 through HTTP on real write routes (POST and PATCH /properties), on Redis and
 * on the in-process store.
 */
const HOUR = 3600_000;
const newProperty = () => newPropertyBody('IDEM');
let serial = 0;

/** Headers that belong to the operation (everything but the per-request ones). */
function operationHeaders(res: Reply): Record<string, string> {
  const perRequest = /^(x-qc-request-id|x-ratelimit-.*|idempotency-.*|date|content-length)$/;
  return Object.fromEntries([...res.headers].filter(([name]) => !perRequest.test(name)));
}

for (const backend of REDIS_BACKENDS) {
  describe(`Idempotency-Key (${backend.name})`, () => {
    let token: string;

    const t = testAppPerFile({ env: backend.env, clock: new ManualClock('2030-05-01T08:00:00Z') });
    const demo = perFile(() => t.demo());
    beforeAll(async () => {
      token = demo.personal_token;
    });

    const countCode = (code: string) => countPartnerCode(t, code);

    it('replays the first response for the same key and body, with Idempotency-Replayed and the original time', async () => {
      const body = newProperty();
      const headers = { 'idempotency-key': `create-${body.partner_code}` };
      const first = await t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotency-replayed')).toBeNull();
      const originalAt = t.clock.now().toISOString();

      t.clock.advance(5 * 60_000);
      const again = await t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(again.status).toBe(201);
      expect(again.text).toBe(first.text);
      expect(operationHeaders(again)).toEqual(operationHeaders(first));
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(again.headers.get('idempotency-original-timestamp')).toBe(originalAt);
      // The replay is a request of its own: its own id and rate-limit headers.
      expect(again.headers.get('x-qc-request-id')).not.toBe(first.headers.get('x-qc-request-id'));
      expect(again.headers.get('x-ratelimit-bucket')).toBe('config-writes');
      expect(await countCode(body.partner_code)).toBe(1);
    });

    it('replays an error response too, support ticket included', async () => {
      // Refused by the service (unknown type_id), by schema validation (no name), by an unparsable body.
      const bodies = [{ body: { ...newProperty(), type_id: 999 } }, { body: { type_id: 1 } }, { raw: '{"name": ' }];
      for (const body of bodies) {
        const headers = { 'idempotency-key': `invalid-${++serial}` };
        const first = await t.request('POST', '/v1/qc/properties', { token, ...body, headers });
        expect(first.status).toBe(422);
        const again = await t.request('POST', '/v1/qc/properties', { token, ...body, headers });
        expect(again.status).toBe(422);
        expect(again.text).toBe(first.text);
        expect(again.headers.get('x-qc-support-ticket')).toBe(first.headers.get('x-qc-support-ticket'));
        expect(again.headers.get('idempotency-replayed')).toBe('true');
      }
    });

    it('treats a different key, another path or another client as a new operation', async () => {
      const body = newProperty();
      const first = await t.request('POST', '/v1/qc/properties', { token, body, headers: { 'idempotency-key': 'k1' } });
      expect(first.status).toBe(201);
      // Ran again (not replayed): the code is now taken.
      const otherKey = await t.request('POST', '/v1/qc/properties', {
        token,
        body,
        headers: { 'idempotency-key': 'k2' },
      });
      expect(otherKey.status).toBe(409);
      expect(otherKey.body.message).toBe('errors.qc.partner_code_taken');
      expect(otherKey.headers.get('idempotency-replayed')).toBeNull();

      const client = await t.client({
        customer_id: demo.customer_id,
        scopes: ['properties.manage'],
        account_scoped: true,
      });
      const otherClient = await t.request('POST', '/v1/qc/properties', {
        token: client.token,
        body,
        headers: { 'idempotency-key': 'k1' },
      });
      expect(otherClient.status).toBe(409);
      expect(otherClient.headers.get('idempotency-replayed')).toBeNull();

      const [a, b] = demo.properties.map((p) => p.external_property_id);
      const patch = { partner_name: `Renamed ${++serial}` };
      const onA = await t.request('PATCH', `/v1/qc/properties/${a}`, {
        token,
        body: patch,
        headers: { 'idempotency-key': 'same' },
      });
      const onB = await t.request('PATCH', `/v1/qc/properties/${b}`, {
        token,
        body: patch,
        headers: { 'idempotency-key': 'same' },
      });
      expect([onA.status, onB.status]).toEqual([200, 200]);
      expect(onB.headers.get('idempotency-replayed')).toBeNull();
      expect(onB.body.data.id).toBe(b);
    });

    it('ignores Idempotency-Key on GET', async () => {
      const headers = { 'idempotency-key': 'x'.repeat(300) };
      const first = await t.request('GET', '/v1/qc/properties', { token, headers });
      const second = await t.request('GET', '/v1/qc/properties', { token, headers });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.headers.get('idempotency-replayed')).toBeNull();
    });

    it('keeps a response 24 hours from the original, not extended by replays; then the key is a new operation', async () => {
      const body = newProperty();
      const headers = { 'idempotency-key': `day-${body.partner_code}` };
      const started = t.clock.now().getTime();
      expect((await t.request('POST', '/v1/qc/properties', { token, body, headers })).status).toBe(201);

      t.clock.set(new Date(started + 23 * HOUR));
      const replay = await t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotency-original-timestamp')).toBe(new Date(started).toISOString());

      t.clock.set(new Date(started + 24 * HOUR - 1));
      expect(
        (await t.request('POST', '/v1/qc/properties', { token, body, headers })).headers.get('idempotency-replayed'),
      ).toBe('true');

      t.clock.set(new Date(started + 24 * HOUR));
      const fresh = await t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(fresh.status).toBe(409);
      expect(fresh.body.message).toBe('errors.qc.partner_code_taken');
      expect(fresh.headers.get('idempotency-replayed')).toBeNull();
      expect(await countCode(body.partner_code)).toBe(1);
    });
  });
}
