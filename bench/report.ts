import { appendFileSync } from 'node:fs';

/** One figure of a benchmark, with the reference it was measured beside (in the same run) when it has one. */
export interface Figure {
  bench: string;
  name: string;
  value: number;
  unit: string;
  reference?: string;
  referenceValue?: number;
  /** value / referenceValue for rates, referenceValue / value for times: above 1 means faster than the reference. */
  ratio?: number;
  /** What the figure must meet (issue 17), as text: '>= 0.8x', '< 20 ms'. */
  target?: string;
  met?: boolean;
  /** Spread over repeated measurements, or a note. */
  range?: string;
}

const fixed = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(Math.abs(x) >= 10 ? 1 : 2));

/** One line of the summary table. */
export function figureLine(f: Figure): string {
  const value = `${fixed(f.value)} ${f.unit}`;
  const ref = f.referenceValue === undefined ? '' : `${fixed(f.referenceValue)} ${f.unit} (${f.reference})`;
  const ratio = f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`;
  const verdict = f.met === undefined ? '' : f.met ? 'met' : 'MISSED';
  return [
    f.bench.padEnd(10),
    f.name.padEnd(66),
    value.padStart(14),
    ratio.padStart(7),
    `${(f.target ?? '').padEnd(9)} ${verdict.padEnd(6)}`,
    ref,
    f.range ? `[${f.range}]` : '',
  ].join('  ');
}

/**
 * Prints a benchmark's figures; under `npm run bench` (BENCH_REPORT names a file) also appends them there as
 * JSON lines, which bench/all.ts gathers into one table and bench/results/<date>.json. A figure that missed its
 * target sets the process's exit code to 1, so a benchmark run alone (`npm run bench:feed`) fails as it fails under
 * `npm run bench` (STYLE.md: a benchmark that misses its target must not exit 0); a benchmark that ends with
 * `process.exit` calls it without a code, which exits with this one.
 */
export function report(figures: Figure[]): void {
  console.log('');
  for (const f of figures) console.log(figureLine(f));
  if (figures.some((f) => f.met === false)) process.exitCode = 1;
  const file = process.env.BENCH_REPORT;
  if (file) appendFileSync(file, figures.map((f) => `${JSON.stringify(f)}\n`).join(''));
}
