import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { bookedInWindow } from '../../pricing/promotion-window.ts';
import { call, configTest } from '../config-surfaces/test-fixtures.ts';

/**
 * The promotion time-window rule (spec 2.9), against a model written out here: a window is accepted
 * exactly when to > from or either side is 00:00 or 24:00, and a booking at T qualifies exactly when it
 * is at or after a bounded start and before a bounded end.
 */
const time = fc
  .oneof(
    fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })),
    fc.constantFrom<[number, number]>([0, 0], [24, 0]),
  )
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
const unbounded = (t: string) => t === '00:00' || t === '24:00';

const c = configTest();

describe('promotion time window (property)', () => {
  it('is accepted through the API exactly when the model accepts it', async () => {
    await fc.assert(
      fc.asyncProperty(time, time, async (from, to) => {
        const res = await call(c, 'POST', `/properties/${c.property}/promotions`, {
          name: 'Window',
          type: 'basic',
          discount_type: 'percent',
          discount_value: 5,
          resv_from_time: from,
          resv_to_time: to,
        });
        const accepted = unbounded(from) || unbounded(to) || minutes(to) > minutes(from);
        expect(res.status).toBe(accepted ? 201 : 422);
        if (!accepted) expect(Object.keys(res.body.errors)).toEqual(['resv_to_time']);
      }),
      { numRuns: 60 },
    );
  });

  it('lets a booking in exactly when it is inside the bounded sides', () => {
    fc.assert(
      fc.property(time, time, time, (from, to, at) => {
        const inside =
          (unbounded(from) || minutes(at) >= minutes(from)) && (unbounded(to) || minutes(at) < minutes(to));
        expect(bookedInWindow(from, to, at)).toBe(inside);
      }),
      { numRuns: 2000 },
    );
  });
});
