import { describe, expect, it } from 'bun:test';
import { perFile, testAppPerFile } from '../../testing/harness.ts';

/**
 * JSON bodies are checked as sent (./json-body.ts). Elysia's own validation answered a body it had reshaped:
 * `"hello"` or `[1,2]` copied into `{}` (a catalogue PUT with `"hello"` erased the catalogue), `"name_tr": "str"`
 * stored as `{"0": "s", ...}`, `"rooms": "x"` reported on `rooms.0.code`, and `"type_id": "1"` taken for 1.
 */
const t = testAppPerFile();
const demo = perFile(() => t.demo());
const property = () => demo.properties[0]!.external_property_id;

function send(method: string, path: string, raw: string) {
  return t.request(method, `/v1/qc/properties/${property()}${path}`, { token: demo.personal_token, raw });
}

const NOT_OBJECTS = ['"hello"', '42', '[]', '[1,2]', 'true'];

describe('a JSON body that is not an object', () => {
  it('is refused on PUT catalogue with 422 body: object, and the catalogue is not erased', async () => {
    const before = await t.request('GET', `/v1/qc/properties/${property()}/catalogue`, { token: demo.personal_token });
    for (const raw of NOT_OBJECTS) {
      const res = await send('PUT', '/catalogue', raw);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ body: ['customer.catalogue.messages.object'] });
    }
    const after = await t.request('GET', `/v1/qc/properties/${property()}/catalogue`, { token: demo.personal_token });
    expect(after.body.data).toEqual(before.body.data);
  });

  it('is refused on PATCH room type, PATCH and POST extra service, and the record keeps its updated_at', async () => {
    for (const raw of NOT_OBJECTS) {
      const res = await send('PATCH', '/room_types/DBL', raw);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ body: ['customer.room_type.messages.object'] });
    }
    const id = demo.configuration.extra_service_id;
    const before = await t.request('GET', `/v1/qc/properties/${property()}/extra_services/${id}`, {
      token: demo.personal_token,
    });
    for (const [method, path] of [
      ['PATCH', `/extra_services/${id}`],
      ['POST', '/extra_services'],
    ] as const) {
      const res = await send(method, path, '[1,2]');
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ body: ['customer.extra_service.messages.object'] });
    }
    const after = await t.request('GET', `/v1/qc/properties/${property()}/extra_services/${id}`, {
      token: demo.personal_token,
    });
    expect(after.body.data.updated_at).toBe(before.body.data.updated_at);
  });
});

describe('a string or array where an object or array goes', () => {
  it('is refused on the name_tr map itself (rule object), never stored split into characters', async () => {
    for (const nameTr of ['"str"', '["a","b"]', '5']) {
      const res = await t.request('POST', '/v1/qc/properties', {
        token: demo.personal_token,
        raw: `{"name":"Inn","name_tr":${nameTr},"type_id":1,"currency":"EUR","timezone":"Europe/Berlin","partner_code":"SPLIT-1"}`,
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ name_tr: ['customer.property.messages.object'] });
      const room = await send('POST', '/room_types', `{"name":"Loft","name_tr":${nameTr}}`);
      expect(room.status).toBe(422);
      expect(room.body.errors).toEqual({ name_tr: ['customer.room_type.messages.object'] });
    }
  });

  it('is refused on the list itself (rule array), not on its first characters', async () => {
    const catalogue = await send('PUT', '/catalogue', '{"rooms":"x"}');
    expect(catalogue.status).toBe(422);
    expect(catalogue.body.errors.rooms).toEqual(['customer.catalogue.messages.array']);
    expect(Object.keys(catalogue.body.errors).filter((k) => k.startsWith('rooms.'))).toEqual([]);

    const plan = demo.properties[0]!.rate_plans[0]!.id;
    const pricing = await send('PUT', `/rate_plans/${plan}/pricing-model`, '{"occupancies":"A1"}');
    expect(pricing.status).toBe(422);
    expect(pricing.body.errors.occupancies).toEqual(['customer.rate_plan.messages.array']);
    expect(Object.keys(pricing.body.errors).filter((k) => k.startsWith('occupancies.'))).toEqual([]);

    const groups = await send('PUT', '/age-groups', '{"groups":"x"}');
    expect(groups.status).toBe(422);
    expect(groups.body.errors).toEqual({ groups: ['customer.age_group.messages.array'] });
  });

  it('is refused on the inventory pushes as `values: array`, whatever the wrong value', async () => {
    for (const [path, resource] of [
      ['/inventory/rates', 'rate'],
      ['/inventory/availability', 'availability'],
    ] as const) {
      for (const values of ['"abc"', '1', '{"a":1}']) {
        const res = await send('POST', path, `{"values":${values}}`);
        expect(res.status).toBe(422);
        expect(res.body.errors).toEqual({ values: [`customer.${resource}.messages.array`] });
      }
    }
  });
});

describe('a number written as text in a JSON body', () => {
  it('reads a number written as text as the number, as v1 always did, and refuses text that is no number', async () => {
    const room = await send('POST', '/room_types', '{"name":"Loft","regular_beds":"2","qty":"5"}');
    expect(room.status).toBe(201);
    expect(room.body.data).toMatchObject({ regular_beds: 2, qty: 5 });

    const wordy = await send('POST', '/room_types', '{"name":"Attic","regular_beds":"two","qty":"5.5"}');
    expect(wordy.status).toBe(422);
    expect(wordy.body.errors).toEqual({
      qty: ['customer.room_type.messages.integer'],
      regular_beds: ['customer.room_type.messages.integer'],
    });
    const list = await t.request('GET', `/v1/qc/properties/${property()}/room_types`, { token: demo.personal_token });
    expect(list.body.data.room_types.map((r: { name: string }) => r.name)).not.toContain('Attic');
  });

  it('still takes numbers as numbers, and the form-encoded token endpoint still reads its strings', async () => {
    const room = await send('POST', '/room_types', '{"name":"Loft 2","regular_beds":2,"qty":5}');
    expect(room.status).toBe(201);
    expect(room.body.data).toMatchObject({ regular_beds: 2, qty: 5 });
    const token = await t.oauthToken(demo.client.client_id, demo.client.client_secret);
    expect(token).toBeString();
  });
});

describe('rules named in the errors map', () => {
  it('names the rule a nullable field broke, not `invalid`', async () => {
    const long = await send('PATCH', '/room_types/DBL', JSON.stringify({ partner_name: 'x'.repeat(300) }));
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ partner_name: ['customer.room_type.messages.max_length'] });
    expect(long.body.detail).toBe('partner_name: is too long.');
    const number = await send('PATCH', '/room_types/DBL', '{"partner_name":123}');
    expect(number.status).toBe(422);
    expect(number.body.errors).toEqual({ partner_name: ['customer.room_type.messages.string'] });
  });
});
