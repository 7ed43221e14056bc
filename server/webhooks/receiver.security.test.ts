import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { memorySeenStore, verifyWebhook, verifyWebhookRequest } from './receiver.ts';
import { signPayload } from './signature.ts';

const SECRET = 'whsec_test-secret-one';
const OTHER = 'whsec_test-secret-two';
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const body = JSON.stringify({
  id: 'e1',
  type: 'booking.created',
  created_at: '2026-01-01T12:00:00Z',
  property_id: null,
  data: { revision_id: 1 },
});

async function headersFor(
  raw: string | Uint8Array,
  options: { secret?: string; at?: number; delivery?: string; subscription?: string } = {},
) {
  const timestamp = Math.floor((options.at ?? NOW) / 1000);
  return new Headers({
    'x-qc-timestamp': String(timestamp),
    'x-qc-signature-256': await signPayload(options.secret ?? SECRET, timestamp, raw),
    'x-qc-delivery': options.delivery ?? 'd-1',
    'x-qc-subscription': options.subscription ?? 'sub-1',
    'x-qc-event': 'booking.created',
    'x-qc-attempt': '3',
  });
}

const now = () => NOW;

describe('receiver helper (spec 6.2)', () => {
  it('accepts an authentic delivery and returns the event', async () => {
    const result = await verifyWebhook(await headersFor(body), body, { secrets: [SECRET], now });
    expect(result).toEqual({
      ok: true,
      event: JSON.parse(body),
      deliveryId: 'd-1',
      subscriptionId: 'sub-1',
      attempt: 3,
      secretIndex: 0,
    });
  });

  it('matches the signature of spec 6.1 byte for byte', async () => {
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(SECRET),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`1767268800.${body}`));
    expect(await signPayload(SECRET, 1767268800, body)).toBe(`sha256=${Buffer.from(mac).toString('hex')}`);
  });

  it('rejects timestamps more than 5 minutes away, either way', async () => {
    for (const offset of [-301_000, 301_000]) {
      const headers = await headersFor(body, { at: NOW + offset });
      expect(await verifyWebhook(headers, body, { secrets: [SECRET], now })).toEqual({
        ok: false,
        reason: 'stale_timestamp',
      });
    }
    for (const offset of [-299_000, 299_000]) {
      const headers = await headersFor(body, { at: NOW + offset });
      expect((await verifyWebhook(headers, body, { secrets: [SECRET], now })).ok).toBe(true);
    }
  });

  it('rejects a wrong secret, a tampered body, a replayed signature under a new timestamp, missing headers', async () => {
    const headers = await headersFor(body);
    expect(await verifyWebhook(headers, body, { secrets: [OTHER], now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(await verifyWebhook(headers, `${body} `, { secrets: [SECRET], now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const moved = new Headers(headers);
    moved.set('x-qc-timestamp', String(Number(headers.get('x-qc-timestamp')) + 1));
    expect(await verifyWebhook(moved, body, { secrets: [SECRET], now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    for (const name of ['x-qc-timestamp', 'x-qc-signature-256', 'x-qc-delivery', 'x-qc-subscription']) {
      const partial = new Headers(headers);
      partial.delete(name);
      expect(await verifyWebhook(partial, body, { secrets: [SECRET], now })).toEqual({
        ok: false,
        reason: 'missing_header',
      });
    }
    const garbage = new Headers(headers);
    garbage.set('x-qc-signature-256', 'sha256=zz');
    expect(await verifyWebhook(garbage, body, { secrets: [SECRET], now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('accepts either secret during a rotation and says which one signed', async () => {
    const oldSigned = await headersFor(body, { secret: OTHER });
    expect(await verifyWebhook(oldSigned, body, { secrets: [SECRET, OTHER], now })).toMatchObject({
      ok: true,
      secretIndex: 1,
    });
  });

  it('reports a repeated delivery id as a duplicate, and only authentic ones are remembered', async () => {
    const seen = memorySeenStore();
    const headers = await headersFor(body, { delivery: 'd-dup' });
    const forged = new Headers(headers);
    forged.set('x-qc-signature-256', `sha256=${'0'.repeat(64)}`);
    expect((await verifyWebhook(forged, body, { secrets: [SECRET], now, seen })).ok).toBe(false);
    expect((await verifyWebhook(headers, body, { secrets: [SECRET], now, seen })).ok).toBe(true);
    expect(await verifyWebhook(headers, body, { secrets: [SECRET], now, seen })).toEqual({
      ok: false,
      reason: 'duplicate',
    });
  });

  it('forgets delivery ids after the time to live', () => {
    let at = 0;
    const seen = memorySeenStore(1000, () => at);
    expect(seen.add('a')).toBe(true);
    expect(seen.add('a')).toBe(false);
    at = 1001;
    expect(seen.add('a')).toBe(true);
  });

  it('checks the subscription is one of yours', async () => {
    const headers = await headersFor(body, { subscription: 'sub-9' });
    expect(await verifyWebhook(headers, body, { secrets: [SECRET], subscriptionIds: ['sub-1'], now })).toEqual({
      ok: false,
      reason: 'unknown_subscription',
    });
  });

  it('verifies a fetch Request over its raw bytes', async () => {
    const raw = `{"id":"e2","type":"booking.created","data":{"name":"Ålesund \\u00e9"}}`;
    const request = new Request('http://localhost/hook', { method: 'POST', headers: await headersFor(raw), body: raw });
    expect(await verifyWebhookRequest(request, { secrets: [SECRET], now })).toMatchObject({ ok: true });
  });

  it('verifies every signed body and rejects every single-byte change (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (bytes, pos, flip) => {
          const headers = await headersFor(bytes);
          expect((await verifyWebhook(headers, bytes, { secrets: [SECRET], now })).ok).toBe(
            bytes.length > 0 && isJson(bytes),
          );
          const changed = Uint8Array.from(bytes);
          const i = pos % changed.length;
          changed[i] = (changed[i] ?? 0) ^ flip;
          expect(await verifyWebhook(headers, changed, { secrets: [SECRET], now })).toEqual({
            ok: false,
            reason: 'bad_signature',
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});

function isJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}
