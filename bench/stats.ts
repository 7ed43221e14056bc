/** Latency figures of one benchmark row, in the samples' unit (milliseconds in every bench here). */
export interface Stats {
  median: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  n: number;
}

/**
 * The sample at quantile `q` of ascending `sorted`, by nearest rank: the smallest sample that at least a fraction
 * `q` of the samples do not exceed (q = 1 is the largest). The p99 of 100 samples is the 99th, not the largest:
 * until 2026-11-26 this took the sample one rank above, so the p99 of bench:volume's 100 pushes was their slowest.
 */
export function quantile(sorted: number[], q: number): number {
  // The epsilon keeps a product such as 0.07 * 100 (7.000000000000001 in floating point) at its rank.
  const rank = Math.ceil(q * sorted.length - 1e-9);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** Summarises `samples` (left as they are). */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: quantile(sorted, 1),
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
    n: sorted.length,
  };
}

/** Milliseconds of each of `n` sequential calls of `fn(i)`, after `warmUp` unmeasured calls. */
export async function timed(n: number, fn: (i: number) => Promise<unknown>, warmUp = 0): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}
