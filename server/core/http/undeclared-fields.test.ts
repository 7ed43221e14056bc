import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

/**
 * Issue 28 items 12 and 1: a body field the operation does not declare was dropped without a word (a push with
 * `"extra_top": 1` and a misspelled `"min_stya": 2` answered `warnings: []`), and a `name_tr` key that is not a
 * locale tag became a 422 inside v1. Both are accepted and named now (spec 9.1: within a major, additive only).
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const day = (n: number) => new Date(t.clock.now().getTime() + n * 86_400_000).toISOString().slice(0, 10);

describe('undeclared body fields', () => {
  it('names a misspelled restriction and an extra top-level field in the push warnings, and writes the rest', async () => {
    const property = demo.properties[0]?.id;
    const res = await t.request('POST', `/v1/qc/properties/${property}/inventory/rates`, {
      token: demo.personal_token,
      body: {
        extra_top: 1,
        values: [
          { room_type_id: 'DBL', rate_plan_id: 'BAR', date_from: day(30), date_to: day(30), rate: 137, min_stya: 2 },
        ],
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.data.written).toBe(1);
    expect(res.body.data.warnings).toEqual([
      { key: 'errors.qc.unknown_field', field: 'extra_top' },
      { row: 0, key: 'errors.qc.unknown_field', field: 'values.0.min_stya' },
    ]);
  });

  it('names an undeclared field of a configuration write in warnings beside data, and applies the declared ones', async () => {
    const property = demo.properties[0]?.id;
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      body: { partner_name: 'Renamed', partner_nmae: 'typo' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.partner_name).toBe('Renamed');
    expect(res.body.warnings).toEqual([{ field: 'partner_nmae', key: 'errors.qc.unknown_field' }]);
  });

  it('answers a write without undeclared fields exactly as before: no warnings member', async () => {
    const property = demo.properties[0]?.id;
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      body: { partner_name: 'Renamed again' },
    });
    expect(res.status).toBe(200);
    expect('warnings' in res.body).toBe(false);
  });
});

describe('name_tr keys that are not locale tags (item 1)', () => {
  it('stores them as sent, as v1 did before 2026-11-22, and names each in warnings', async () => {
    const property = demo.properties[0]?.id;
    const res = await t.request('POST', `/v1/qc/properties/${property}/room_types`, {
      token: demo.personal_token,
      body: { name: 'Loft', name_tr: { 'en-GB': 'Loft', english: 'Loft' } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.name_tr).toEqual({ 'en-GB': 'Loft', english: 'Loft' });
    expect(res.body.warnings).toEqual([{ field: 'name_tr.english', key: 'errors.qc.unknown_field' }]);
  });
});

describe('a `__proto__` key in a JSON body', () => {
  const create = (extra: Record<string, unknown>) =>
    `{"__proto__":{"name":"polluted","partner_name":"polluted"},${JSON.stringify(extra).slice(1)}`;

  it('never becomes a field: a create that lacks name is refused, not stored as "polluted"', async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      raw: create({ type_id: 1, currency: 'EUR', timezone: 'Europe/Berlin', partner_code: 'PROTO-1' }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ name: ['customer.property.messages.required'] });
    const room = await t.request('POST', `/v1/qc/properties/${demo.properties[0]?.id}/room_types`, {
      token: demo.personal_token,
      raw: create({ kind: 'room' }),
    });
    expect(room.status).toBe(422);
    expect(room.body.errors).toEqual({ name: ['customer.room_type.messages.required'] });
  });

  it('is named in warnings and ignored, at the top and inside a name_tr map', async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      raw: create({
        name: 'Inn',
        type_id: 1,
        currency: 'EUR',
        timezone: 'Europe/Berlin',
        partner_code: 'PROTO-2',
      }).replace('"name":"Inn"', '"name":"Inn","name_tr":{"__proto__":{"en-GB":"polluted"},"pt-PT":"Pousada"}'),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Inn', name_tr: { 'pt-PT': 'Pousada' }, partner_name: null });
    expect(res.body.warnings).toEqual([
      { field: '__proto__', key: 'errors.qc.unknown_field' },
      { field: 'name_tr.__proto__', key: 'errors.qc.unknown_field' },
    ]);
  });

  it('lends no field to the body through a copy: an omitted name_tr is the default, not the one under __proto__', async () => {
    const res = await t.request('POST', '/v1/qc/properties', {
      token: demo.personal_token,
      raw: '{"__proto__":{"name_tr":{"en-GB":"polluted"}},"name":"Inn","type_id":1,"currency":"EUR","timezone":"Europe/Berlin","partner_code":"PROTO-3"}',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.name_tr).toEqual({ 'en-GB': 'Inn' });
    expect(res.body.warnings).toEqual([{ field: '__proto__', key: 'errors.qc.unknown_field' }]);
  });

  it('changes nothing on a PATCH beyond the fields sent', async () => {
    const property = demo.properties[0]?.id;
    const res = await t.request('PATCH', `/v1/qc/properties/${property}`, {
      token: demo.personal_token,
      raw: '{"__proto__":{"partner_name":"polluted"}}',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.partner_name).not.toBe('polluted');
    expect(res.body.warnings).toEqual([{ field: '__proto__', key: 'errors.qc.unknown_field' }]);
    const service = await t.request(
      'PATCH',
      `/v1/qc/properties/${property}/extra_services/${demo.configuration.extra_service_id}`,
      { token: demo.personal_token, raw: '{"__proto__":{"name":"polluted"},"is_daily":true}' },
    );
    expect(service.status).toBe(200);
    expect(service.body.data.name).not.toBe('polluted');
    expect(service.body.warnings).toEqual([{ field: '__proto__', key: 'errors.qc.unknown_field' }]);
  });
});
