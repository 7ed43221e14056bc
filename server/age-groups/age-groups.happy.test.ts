import { describe, expect, it } from 'bun:test';
import { call, configTest, eventsOf } from '../config-surfaces/test-fixtures.ts';

const c = configTest();
const path = () => `/properties/${c.property}/age-groups`;
const defaults = [
  { code: 'I', from_age: 0, to_age: 2 },
  { code: 'C', from_age: 3, to_age: 11 },
  { code: 'T', from_age: 12, to_age: 17 },
];

describe('age groups', () => {
  it('reads the default brackets of a property that never set them, in I, C, T order', async () => {
    const res = await call(c, 'GET', path());
    expect(res.body).toEqual({ status: 'ok', message: 'ok', data: { is_active: true, groups: defaults } });
  });

  it('merges a partial PUT: only the fields present change, and the answer previews the change', async () => {
    const res = await call(c, 'PUT', path(), {
      groups: [
        { code: 'C', to_age: 12 },
        { code: 'T', from_age: 13 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      is_active: true,
      groups: [defaults[0], { code: 'C', from_age: 3, to_age: 12 }, { code: 'T', from_age: 13, to_age: 17 }],
      preview: {
        is_active_changed: false,
        changed_groups: ['C', 'T'],
        reprice_note: expect.stringContaining('next quote'),
      },
    });
    expect((await call(c, 'GET', path())).body.data.groups).toEqual(res.body.data.groups);
    expect(await eventsOf(c, 'age_groups.updated')).toEqual([
      { property_id: c.property, is_active: true, changed_groups: ['C', 'T'] },
    ]);
  });

  it('is idempotent: the same PUT again changes nothing and records no event', async () => {
    const before = (await eventsOf(c, 'age_groups.updated')).length;
    const res = await call(c, 'PUT', path(), { groups: [{ code: 'C', to_age: 12 }] });
    expect(res.body.data.preview).toEqual({
      is_active_changed: false,
      changed_groups: [],
      reprice_note: expect.stringContaining('Nothing changed'),
    });
    expect(await eventsOf(c, 'age_groups.updated')).toHaveLength(before);
  });

  it('switches the brackets off and on, keeping them', async () => {
    const off = await call(c, 'PUT', path(), { is_active: false });
    expect(off.body.data).toMatchObject({ is_active: false, preview: { is_active_changed: true, changed_groups: [] } });
    const on = await call(c, 'PUT', path(), { is_active: true });
    expect(on.body.data.groups).toEqual(off.body.data.groups);
  });
});
