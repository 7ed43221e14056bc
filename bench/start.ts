/**
 * `npm run bench -- start`: `npm start` (server/main.ts) on an empty data directory, embedded PGlite and the
 * in-process queue as the README's quick start runs it, from the spawn to the first answer of /healthz. Reference in
 * the same run: PGlite alone creating an empty database in a fresh directory (its initdb), in a process of its
 * own, which is most of what a first start waits for. BENCH_ROUNDS starts of each, alternating (3).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/testing/free-port.ts';
import { report } from './report.ts';
import { stats } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_MS = 3000;

async function startToHealthz(): Promise<number> {
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

const starts: number[] = [];
const references: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  references.push(await pgliteAlone());
  starts.push(await startToHealthz());
}
const start = stats(starts);
const reference = stats(references);
console.log(
  `start: npm start on an empty data dir to /healthz: ${starts.map((ms) => ms.toFixed(0)).join(', ')} ms; PGlite initdb alone: ${references.map((ms) => ms.toFixed(0)).join(', ')} ms`,
);
report([
  {
    bench: 'start',
    name: `npm start, empty data dir (PGlite), to /healthz (median of ${ROUNDS})`,
    value: start.median,
    unit: 'ms',
    reference: 'PGlite alone creating an empty database',
    referenceValue: reference.median,
    ratio: reference.median / start.median,
    target: '< 3 s',
    met: start.median < TARGET_MS,
    range: `${Math.min(...starts).toFixed(0)}-${Math.max(...starts).toFixed(0)} ms`,
  },
]);
