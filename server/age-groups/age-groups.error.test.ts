import { describe, expect, it } from 'bun:test';
import { call, configTest, validationErrors } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const path = () => `/properties/${c.property}/age-groups`;

describe('age group refusals', () => {
  it('refuses an inverted range, also one made by merging with the stored bound, and writes nothing', async () => {
    const before = (await call(c, 'GET', path())).body.data;
    for (const groups of [
      [{ code: 'C', from_age: 9, to_age: 4 }],
      [
        { code: 'T', is_active: false },
        { code: 'I', from_age: 5 },
      ],
    ]) {
      const res = await call(c, 'PUT', path(), { is_active: false, groups });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('errors.qc.age_group_range_inverted');
      expect(Object.values(res.body.errors).flat()).toEqual(['customer.age_group.messages.range_inverted']);
      expect((await call(c, 'GET', path())).body.data).toEqual(before);
    }
  });

  it('validates codes, ages and duplicates', async () => {
    expect(validationErrors(await call(c, 'PUT', path(), { groups: [{ code: 'A', from_age: 1 }] }))).toEqual({
      'groups.0.code': ['customer.age_group.messages.in'],
    });
    expect(
      Object.keys(validationErrors(await call(c, 'PUT', path(), { groups: [{ code: 'C', to_age: 18 }] }))),
    ).toEqual(['groups.0.to_age']);
    expect(
      validationErrors(
        await call(c, 'PUT', path(), {
          groups: [
            { code: 'C', to_age: 10 },
            { code: 'C', to_age: 11 },
          ],
        }),
      ),
    ).toEqual({ 'groups.1.code': ['customer.age_group.messages.duplicate'] });
  });
});
