import { describe, expect, it } from 'bun:test';
import { type ExtraService, extraPrice } from './extras.ts';

// 2026-07-10 is a Friday.
const nights = ['2026-07-10', '2026-07-11', '2026-07-12'];
const guests = { adults: 2, children: 1 };
const service = (s: Partial<ExtraService> = {}): ExtraService => ({
  id: 1,
  price: 10,
  price_type: 1,
  is_daily: false,
  do_not_apply_promotions: false,
  active_week_days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  select_dates_type: '0',
  select_min_days: null,
  ...s,
});

describe('extra service price on a quote', () => {
  it('counts units by price_type', () => {
    const prices = [1, 2, 3, 4, 5].map(
      (price_type) => extraPrice(service({ price_type }), nights, guests, null)?.price,
    );
    expect(prices).toEqual([10, 10, 30, 20, 10]);
    expect(extraPrice(service({ price_type: 5 }), nights, { adults: 2, children: 0 }, null)).toBeUndefined();
  });

  it('counts the active nights of a daily service, one or min_days when the guest picks', () => {
    expect(extraPrice(service({ is_daily: true }), nights, guests, null)?.price).toBe(30);
    expect(extraPrice(service({ is_daily: true, active_week_days: ['sat', 'sun'] }), nights, guests, null)?.price).toBe(
      20,
    );
    expect(extraPrice(service({ is_daily: true, select_dates_type: '1' }), nights, guests, null)?.price).toBe(10);
    const range = service({ is_daily: true, select_dates_type: '2', select_min_days: 2 });
    expect(extraPrice(range, nights, guests, null)?.price).toBe(20);
    expect(extraPrice({ ...range, select_min_days: 4 }, nights, guests, null)).toBeUndefined();
    expect(extraPrice(service({ active_week_days: ['mon'] }), nights, guests, null)).toBeUndefined();
  });

  it("takes the quote's percentage off unless do_not_apply_promotions", () => {
    expect(extraPrice(service({ price: 33.33 }), nights, guests, 15)).toEqual({ price: 28.33, undiscounted: 33.33 });
    expect(extraPrice(service({ do_not_apply_promotions: true }), nights, guests, 15)).toEqual({ price: 10 });
  });
});
