import { beforeAll, describe, expect, it } from 'bun:test';
import { testAppPerFile } from '../testing/harness.ts';
import { APARTMENT, DOUBLE, type StructureFixture, structureFixture } from './test-fixtures.ts';

let fixture: StructureFixture;
let token: string;
let base: string;

const part = (i: number) => fixture.properties[i] ?? fail(`no property ${i}`);
const fail = (why: string): never => {
  throw new Error(why);
};

const t = testAppPerFile();
beforeAll(async () => {
  fixture = await structureFixture(t, [[DOUBLE, APARTMENT], [DOUBLE]]);
  token = fixture.token;
  base = `/v1/qc/properties/${part(0).property.external_id}`;
});

describe('room type refusals', () => {
  it('answers 404 for a room type of another property or an unknown code', async () => {
    const foreign = part(1).rooms[0]?.external_id;
    for (const [method, path] of [
      ['GET', `${base}/room_types/${foreign}`],
      ['GET', `${base}/room_types/NOPE`],
      ['PATCH', `${base}/room_types/${foreign}`],
    ] as const) {
      const res = await t.request(method, path, {
        token,
        body: method === 'PATCH' ? { partner_name: 'x' } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('errors.not_found');
    }
  });

  it('refuses a partner code already used on the property, on create and on PATCH', async () => {
    const dup = await t.request('POST', `${base}/room_types`, { token, body: { name: 'Dup', partner_code: 'DBL' } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('errors.qc.partner_code_taken');
    const patch = await t.request('PATCH', `${base}/room_types/APT`, { token, body: { partner_code: 'DBL' } });
    expect(patch.status).toBe(409);
    expect(patch.body.message).toBe('errors.qc.partner_code_taken');
  });

  it('allows the same partner code on another property', async () => {
    const res = await t.request('POST', `/v1/qc/properties/${part(1).property.external_id}/room_types`, {
      token,
      body: { name: 'Twin code', partner_code: 'APT' },
    });
    expect(res.status).toBe(201);
  });

  it('requires a name', async () => {
    const res = await t.request('POST', `${base}/room_types`, { token, body: { regular_beds: 2 } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
  });

  it('validates the legacy fields', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [
        { name: 'X', images: ['http://insecure.example.com/a.jpg'] },
        { 'images.0': ['customer.room_type.messages.format'] },
      ],
      [
        { name: 'X', extra_beds: 1, extra_beds_children_only: 2 },
        { extra_beds_children_only: ['customer.room_type.messages.max_extra_beds'] },
      ],
      [{ name: 'X', regular_beds: -1 }, { regular_beds: ['customer.room_type.messages.min'] }],
      [{ name: 'X', type: 3 }, { type: ['customer.room_type.messages.in'] }],
      [{ name: 'X', kind: 'castle' }, { kind: ['customer.room_type.messages.in'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await t.request('POST', `${base}/room_types`, { token, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('errors.validation_error');
      // Our own rules carry exact messages; schema rule names come from the shared validation mapping.
      expect(Object.keys(res.body.errors)).toEqual(Object.keys(errors));
      if (errors.extra_beds_children_only) expect(res.body.errors).toEqual(errors);
    }
  });

  it('refuses a kind and a legacy type that name different things, and creates nothing', async () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ name: 'Mismatch', type: 6, kind: 'villa' }, { type: ['customer.room_type.messages.differs_from_kind'] }],
      [{ name: 'Mismatch', type: 7, kind: 'apartment' }, { type: ['customer.room_type.messages.differs_from_kind'] }],
      [
        { name: 'Mismatch', type: 4, kind: 'room', extra_beds: 0, extra_beds_children_only: 1 },
        {
          extra_beds_children_only: ['customer.room_type.messages.max_extra_beds'],
          type: ['customer.room_type.messages.differs_from_kind'],
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const res = await t.request('POST', `${base}/room_types`, { token, body });
      expect([res.status, res.body.errors]).toEqual([422, errors]);
    }
    const first = await t.request('POST', `${base}/room_types`, { token, body: cases[0]?.[0] });
    expect(first.body.detail).toBe(
      'type: names another kind of room than `kind`: send one of them, or two that agree.',
    );
    const [made] = await t.deps.db.sql<{ n: number }>`
      select count(*)::int as n from room_types where property_id = ${part(0).property.id} and name = 'Mismatch'`;
    expect(made?.n).toBe(0);
    // The two agreeing, or either alone, is taken as before.
    const agreeing = await t.request('POST', `${base}/room_types`, {
      token,
      body: { name: 'Agreeing', type: 5, kind: 'villa' },
    });
    expect([agreeing.status, agreeing.body.data?.kind, agreeing.body.data?.type]).toEqual([201, 'villa', 5]);
  });
});
