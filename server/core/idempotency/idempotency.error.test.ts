import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope, validationEnvelope } from '../../testing/error-envelope.ts';
import { EMBEDDED, perFile, testAppPerFile } from '../../testing/harness.ts';
import { REDIS_BACKENDS } from '../../testing/redis-backends.ts';
import { countPartnerCode, holdPartnerCode, newPropertyBody } from './test-support.ts';

/**
 * Spec 8.3 rules 4 and 7 and the key length (8.2) through HTTP on POST /properties, on Redis and on the
 * in-process store. A request is held "in flight" by an uncommitted row with the same partner code: the
 * property insert waits on the unique index until the test lets go.
 */
const newProperty = () => newPropertyBody('IDEMERR');

for (const backend of REDIS_BACKENDS) {
  describe(`Idempotency-Key refusals and waits (${backend.name})`, () => {
    let token: string;

    const t = testAppPerFile({ env: backend.env, idempotencyWaitMs: 1500 });
    const demo = perFile(() => t.demo());
    beforeAll(async () => {
      token = demo.personal_token;
    });

    const countCode = (code: string) => countPartnerCode(t, code);

    /** Resolves once `promise` has been pending for `ms` (the request reached the store and waits). */
    const stillPending = async (promise: Promise<unknown>, ms: number) =>
      (await Promise.race([promise.then(() => 'settled'), Bun.sleep(ms).then(() => 'pending')])) === 'pending';

    it('answers 409 errors.qc.idempotency_conflict for the same key with another body, and writes nothing', async () => {
      const body = newProperty();
      const headers = { 'idempotency-key': `conflict-${body.partner_code}` };
      expect((await t.request('POST', '/v1/qc/properties', { token, body, headers })).status).toBe(201);

      const other = { ...body, partner_code: `${body.partner_code}-B` };
      const conflict = await t.request('POST', '/v1/qc/properties', { token, body: other, headers });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual(errorEnvelope('errors.qc.idempotency_conflict'));
      expect(conflict.headers.get('x-qc-support-ticket')).toMatch(/^QC-/);
      expect(await countCode(other.partner_code)).toBe(0);

      // Byte-identical means bytes: the same JSON with other whitespace is another body.
      const respaced = await t.request('POST', '/v1/qc/properties', {
        token,
        raw: JSON.stringify(body, null, 2),
        headers,
      });
      expect(respaced.status).toBe(409);
      // The original still replays.
      const replay = await t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
    });

    it('answers 422 on a key longer than 128 characters (errors.idempotency_key), and writes nothing', async () => {
      const body = newProperty();
      const tooLong = await t.request('POST', '/v1/qc/properties', {
        token,
        body,
        headers: { 'idempotency-key': 'k'.repeat(129) },
      });
      expect(tooLong.status).toBe(422);
      expect(tooLong.body).toEqual(
        validationEnvelope('idempotency_key: is too long.', {
          idempotency_key: ['customer.property.messages.max_length'],
        }),
      );
      expect(await countCode(body.partner_code)).toBe(0);

      const longest = await t.request('POST', '/v1/qc/properties', {
        token,
        body,
        headers: { 'idempotency-key': 'k'.repeat(127) + body.partner_code.slice(-1) },
      });
      expect(longest.status).toBe(201);
    });

    it('makes a simultaneous same-key request wait for the first and replay its response', async () => {
      const body = newProperty();
      const headers = { 'idempotency-key': `wait-${body.partner_code}` };
      const release = await holdPartnerCode(t, demo.customer_id, body.partner_code);
      const first = t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(await stillPending(first, 150)).toBe(true);
      const second = t.request('POST', '/v1/qc/properties', { token, body, headers });
      expect(await stillPending(second, 300)).toBe(true);

      await release();
      const [a, b] = await Promise.all([first, second]);
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.text).toBe(a.text);
      expect(b.headers.get('idempotency-replayed')).toBe('true');
      expect(await countCode(body.partner_code)).toBe(1);
    });

    it('neither claims nor replays a key for a body refused for its size (413): the key stays as it was', async () => {
      // Over POST /properties' 1 MiB: refused before the body is read whole, so it has no fingerprint.
      const oversized = JSON.stringify({ ...newProperty(), name: 'x'.repeat(1024 * 1024 + 1) });
      const tooLarge = (headers: Record<string, string>) =>
        t.request('POST', '/v1/qc/properties', { token, raw: oversized, headers });

      // Oversized first: the key is still free for the request the partner meant.
      const body = newProperty();
      const first = { 'idempotency-key': `big-first-${body.partner_code}` };
      const refused = await tooLarge(first);
      expect(refused.status).toBe(413);
      expect(refused.body.message).toBe('errors.qc.payload_too_large');
      const empty = await t.request('POST', '/v1/qc/properties', { token, raw: '', headers: first });
      expect(empty.status).toBe(422);
      expect(empty.headers.get('idempotency-replayed')).toBeNull();
      // The empty body now holds the key; the oversized one is still answered on its own.
      expect((await tooLarge(first)).headers.get('idempotency-replayed')).toBeNull();

      // Oversized after a claim: answered 413 on its own, and the claim still replays its own answer.
      const later = { 'idempotency-key': `big-later-${body.partner_code}` };
      expect((await t.request('POST', '/v1/qc/properties', { token, body, headers: later })).status).toBe(201);
      const after = await tooLarge(later);
      expect(after.status).toBe(413);
      expect(after.headers.get('idempotency-replayed')).toBeNull();
      const replay = await t.request('POST', '/v1/qc/properties', { token, body, headers: later });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotency-replayed')).toBe('true');
      expect(await countCode(body.partner_code)).toBe(1);
    });

    // The first request waits on a row lock another transaction holds: two transactions at once (not embedded).
    it.skipIf(EMBEDDED)(
      'answers 409 errors.qc.idempotency_in_flight when the first is still running after the wait',
      async () => {
        const body = newProperty();
        const headers = { 'idempotency-key': `slow-${body.partner_code}` };
        const release = await holdPartnerCode(t, demo.customer_id, body.partner_code);
        const first = t.request('POST', '/v1/qc/properties', { token, body, headers });
        expect(await stillPending(first, 150)).toBe(true);

        const waitedFrom = Date.now();
        const second = await t.request('POST', '/v1/qc/properties', { token, body, headers });
        expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(1400);
        expect(second.status).toBe(409);
        expect(second.body).toEqual(errorEnvelope('errors.qc.idempotency_in_flight'));

        // Another body under the running key is a conflict at once, not a wait.
        const conflictFrom = Date.now();
        const other = await t.request('POST', '/v1/qc/properties', {
          token,
          body: { ...body, name: 'Other' },
          headers,
        });
        expect(other.body.message).toBe('errors.qc.idempotency_conflict');
        expect(Date.now() - conflictFrom).toBeLessThan(1000);

        await release();
        expect((await first).status).toBe(201);
        // In flight is transient: once the first has answered, the retry replays it.
        const retry = await t.request('POST', '/v1/qc/properties', { token, body, headers });
        expect(retry.status).toBe(201);
        expect(retry.headers.get('idempotency-replayed')).toBe('true');
        expect(await countCode(body.partner_code)).toBe(1);
      },
    );
  });
}
