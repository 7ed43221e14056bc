import { beforeAll, describe, expect, it } from 'bun:test';
import { errorEnvelope } from '../testing/error-envelope.ts';
import { testAppPerFile } from '../testing/harness.ts';
import { type BookingFixture, bookingFixture } from './test-fixtures.ts';

let fx: BookingFixture;

const t = testAppPerFile();
beforeAll(async () => {
  fx = await bookingFixture(t);
});

function reservation(over: Record<string, unknown> = {}) {
  return {
    external_property_id: fx.property,
    reservation_id: 'R-1',
    guest: { first_name: 'Ola', last_name: 'Nordmann' },
    checkin_date: '2026-12-01',
    checkout_date: '2026-12-02',
    rooms: [{ room_type_id: fx.rooms[0]?.id, rate_plan_id: fx.plans[0] }],
    total_price: { amount: 100 },
    ...over,
  };
}

const send = (query: string, init: { raw?: string; body?: unknown }) =>
  t.request('POST', `/v1/qc/inbound/webhooks${query}`, { token: fx.token, ...init });

async function bookingCount() {
  const [row] = await t.deps.db.sql<{
    n: number;
  }>`select count(*)::int as n from bookings where property_id = ${fx.propertyId}`;
  return row?.n;
}

describe('POST /inbound/webhooks refusals', () => {
  it('400 errors.qc.webhook.missing_channel without a channel, whatever the body', async () => {
    for (const init of [{ body: reservation() }, { raw: '{not json' }]) {
      const res = await send('', init);
      expect([res.status, res.body]).toEqual([400, errorEnvelope('errors.qc.webhook.missing_channel')]);
    }
    expect((await send('?channel=', { body: reservation() })).body.message).toBe('errors.qc.webhook.missing_channel');
  });

  it('400 errors.qc.webhook.unknown_channel for a code that is not an inbound channel', async () => {
    for (const channel of ['XYZ', 'QDO', 'bdc']) {
      const res = await send(`?channel=${channel}`, { body: reservation() });
      expect([channel, res.status, res.body.message]).toEqual([channel, 400, 'errors.qc.webhook.unknown_channel']);
    }
  });

  it('422 errors.qc.webhook.payload_invalid for malformed JSON or a body that is not an object', async () => {
    for (const raw of ['{"external_property_id": ', '', 'null', '[1,2]', '"text"']) {
      const res = await send('?channel=BDC', { raw });
      expect([raw, res.status, res.body]).toEqual([raw, 422, errorEnvelope('errors.qc.webhook.payload_invalid')]);
    }
  });

  it('422 errors.qc.webhook.missing_property without external_property_id, or naming a property the credential cannot act on', async () => {
    const stranger = await bookingFixture(t);
    for (const id of [undefined, '', 42, stranger.property, '00000000-0000-4000-8000-000000000000']) {
      const res = await send('?channel=BDC', { body: reservation({ external_property_id: id }) });
      expect([id, res.status, res.body.message]).toEqual([id, 422, 'errors.qc.webhook.missing_property']);
    }
  });

  it('422 errors.qc.webhook.payload_invalid with the failing fields, or the reason when the rooms do not exist', async () => {
    const before = await bookingCount();
    const res = await send('?channel=BDC', { body: reservation({ reservation_id: undefined, rooms: [] }) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('errors.qc.webhook.payload_invalid');
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['reservation_id', 'rooms']));
    const unknown = await send('?channel=BDC', {
      body: reservation({ rooms: [{ room_type_id: 'NOPE', rate_plan_id: fx.plans[0] }] }),
    });
    expect([unknown.status, unknown.body]).toEqual([
      422,
      errorEnvelope('errors.qc.webhook.payload_invalid', { reason: 'unknown_room_or_rate' }),
    ]);
    const dates = await send('?channel=BDC', { body: reservation({ checkout_date: '2026-11-30' }) });
    expect(dates.body).toEqual(errorEnvelope('errors.qc.webhook.payload_invalid', { reason: 'bad_dates' }));
    expect(await bookingCount()).toBe(before);
  });

  it('422 payload_invalid naming the field for a lone surrogate or a NUL in the guest e-mail, nothing stored', async () => {
    const before = await bookingCount();
    for (const email of ['\\ud800@example.com', 'pia@exa\\udfffmple.com', 'pia\\u0000@example.com']) {
      const raw = JSON.stringify(reservation({ reservation_id: 'R-chars' })).replace(
        '"guest":{',
        `"guest":{"email":"${email}",`,
      );
      const res = await send('?channel=BDC', { raw });
      expect([email, res.status, res.body]).toEqual([
        email,
        422,
        errorEnvelope('errors.qc.webhook.payload_invalid', {
          errors: { 'guest.email': ['customer.inbound_webhook.messages.invalid_characters'] },
        }),
      ]);
    }
    expect(await bookingCount()).toBe(before);
  });

  it('422 payload_invalid for a guest e-mail that is no address (`x`, empty, spaces, two @)', async () => {
    const before = await bookingCount();
    for (const email of ['x', '', 'pia lund@example.com', 'pia@@example.com', '@example.com', 'pia@']) {
      const res = await send('?channel=BDC', {
        body: reservation({ reservation_id: 'R-mail', guest: { first_name: 'Pia', last_name: 'Lund', email } }),
      });
      expect([email, res.status, res.body.errors]).toEqual([
        email,
        422,
        { 'guest.email': ['customer.inbound_webhook.messages.format'] },
      ]);
    }
    expect(await bookingCount()).toBe(before);
  });
});
