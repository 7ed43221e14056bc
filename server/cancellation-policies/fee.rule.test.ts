import { describe, expect, it } from 'bun:test';
import { cancellationFee } from './fee.ts';
import type { CancellationRule } from './model.ts';

const rule = (r: Partial<CancellationRule>): CancellationRule => ({
  c_type: 'after_booking',
  p_type: 'percent',
  p_days: null,
  p_date: null,
  p_value: 100,
  ...r,
});
const stay = { total: 300, nights: 3, checkin: '2026-07-10', noShow: false };
const flexible = [
  rule({ c_type: 'days_before_arrival', p_days: 7, p_type: 'percent', p_value: 50 }),
  rule({ c_type: 'days_before_arrival', p_days: 2, p_type: 'nights', p_value: 2 }),
  rule({ c_type: 'no_show', p_type: 'percent', p_value: 100 }),
];

describe('cancellation fee', () => {
  it('is free until the first rule applies, then the highest matching charge', () => {
    expect(cancellationFee(flexible, { ...stay, on: '2026-07-03' })).toBe(0);
    expect(cancellationFee(flexible, { ...stay, on: '2026-07-04' })).toBe(150);
    expect(cancellationFee(flexible, { ...stay, on: '2026-07-09' })).toBe(200);
    expect(cancellationFee(flexible, { ...stay, on: '2026-07-10', noShow: true })).toBe(300);
  });

  it('charges after a date, a fixed amount capped at the total, and nothing without rules', () => {
    const dated = [rule({ c_type: 'after_date', p_date: '2026-06-01', p_type: 'amount', p_value: 500 })];
    expect(cancellationFee(dated, { ...stay, on: '2026-05-31' })).toBe(0);
    expect(cancellationFee(dated, { ...stay, on: '2026-06-01' })).toBe(300);
    expect(cancellationFee([], { ...stay, on: '2026-07-10', noShow: true })).toBe(0);
  });

  it('rounds by the money rule', () => {
    expect(cancellationFee([rule({ p_value: 33.333 })], { ...stay, total: 100.01, on: '2026-07-01' })).toBe(33.34);
  });
});
