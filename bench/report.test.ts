import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import type { Figure } from './report.ts';

const figure = (met: boolean | undefined): Figure => ({ bench: 'probe', name: 'a figure', value: 1, unit: 'ms', met });

/** The exit status of a benchmark that reports these figures and ends as the benchmarks do, with `process.exit()`. */
async function exitStatusAfter(figures: Figure[]): Promise<number> {
  const script = `import { report } from ${JSON.stringify(join(import.meta.dir, 'report.ts'))};
report(${JSON.stringify(figures)});
process.exit();`;
  const proc = Bun.spawn([process.execPath, '-e', script], {
    env: { ...process.env, BENCH_REPORT: '' },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  return proc.exited;
}

describe('report', () => {
  it('makes a benchmark that missed a target exit 1, as a benchmark run alone must', async () => {
    expect(await exitStatusAfter([figure(true), figure(false)])).toBe(1);
  });

  it('lets a benchmark whose targets are all met, or that has none, exit 0', async () => {
    expect(await exitStatusAfter([figure(true), figure(undefined)])).toBe(0);
  });
});
