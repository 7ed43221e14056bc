import { describe, expect, it } from 'bun:test';
import { quantile, stats } from './stats.ts';

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('quantile', () => {
  it('takes the nearest rank: the p99 of 100 samples is the 99th, not the largest', () => {
    expect(quantile(oneTo(100), 0.99)).toBe(99);
    expect(quantile(oneTo(100), 0.95)).toBe(95);
    expect(quantile(oneTo(100), 1)).toBe(100);
  });

  it('takes the rank a fraction lands in, whatever floating point makes of the product', () => {
    // 0.07 * 100 is 7.000000000000001 in floating point: rank 7.
    expect(quantile(oneTo(100), 0.07)).toBe(7);
    expect(quantile(oneTo(650), 0.99)).toBe(644);
    expect(quantile(oneTo(3000), 0.99)).toBe(2970);
  });

  it('answers the lower middle sample as the median of an even count, and the only sample of one', () => {
    expect(quantile(oneTo(4), 0.5)).toBe(2);
    expect(quantile(oneTo(5), 0.5)).toBe(3);
    expect(quantile([7], 0.99)).toBe(7);
  });
});

describe('stats', () => {
  it('summarises unsorted samples without reordering them', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(stats(samples)).toEqual({ median: 3, p95: 5, p99: 5, max: 5, mean: 3, n: 5 });
    expect(samples).toEqual([5, 1, 4, 2, 3]);
  });
});
