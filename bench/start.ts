/**
 * `npm run bench -- start`: `npm start` (server/main.ts) on an empty data directory, embedded PGlite and the
 * in-process queue as the README's quick start runs it, from the spawn to the first answer of /healthz. Two kinds
 * of start each round: cold, the first start of a checkout (no template of the migrated database yet: initdb, every
 * migration, and keeping the template), and warm, every later empty data dir (started from the template the cold
 * start kept; server/core/db/pglite-template.ts). Reference in the same run: PGlite alone creating an empty
 * database in a fresh directory (its initdb), in a process of its own. BENCH_ROUNDS rounds, alternating (3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/testing/free-port.ts';
import { report } from './report.ts';
import { stats } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_MS = 3000;

async function startToHealthz(templateDir: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'qc-bench-start-'));
  const port = freePort();
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      QC_DATA_DIR: dir,
      QC_PGLITE_TEMPLATE_DIR: templateDir,
      QC_LOG_LEVEL: 'error',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server/main.ts exited with ${proc.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return performance.now() - started;
      } catch {}
      await Bun.sleep(10);
    }
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pgliteAlone(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'qc-bench-pglite-'));
  const script = `import { PGlite } from '@electric-sql/pglite';
    const pg = await PGlite.create(${JSON.stringify(dir)}); await pg.query('select 1'); await pg.close();`;
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, '-e', script], { stdout: 'ignore', stderr: 'inherit' });
  const code = await proc.exited;
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`PGlite alone exited with ${code}`);
  return ms;
}

const colds: number[] = [];
const warms: number[] = [];
const references: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const templateDir = mkdtempSync(join(tmpdir(), 'qc-bench-template-'));
  try {
    references.push(await pgliteAlone());
    colds.push(await startToHealthz(templateDir));
    warms.push(await startToHealthz(templateDir));
  } finally {
    rmSync(templateDir, { recursive: true, force: true });
  }
}
const reference = stats(references);
const list = (xs: number[]) => xs.map((ms) => ms.toFixed(0)).join(', ');
console.log(
  `start: npm start on an empty data dir to /healthz: warm (template kept) ${list(warms)} ms; cold (first start of a checkout) ${list(colds)} ms; PGlite initdb alone: ${list(references)} ms`,
);
const figure = (kind: string, xs: number[]) => {
  const { median } = stats(xs);
  return {
    bench: 'start',
    name: `npm start, empty data dir (PGlite), ${kind}, to /healthz (median of ${ROUNDS})`,
    value: median,
    unit: 'ms',
    reference: 'PGlite alone creating an empty database',
    referenceValue: reference.median,
    ratio: reference.median / median,
    range: `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`,
  };
};
report([
  // Issue 27's target is the start a newcomer's `npm start` makes after the first: the cold one is shown beside it.
  { ...figure('template kept', warms), target: '< 3 s', met: stats(warms).median < TARGET_MS },
  figure('first start of a checkout (builds the template)', colds),
]);
