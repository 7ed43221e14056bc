/**
 * `npm run bench -- start`: `npm start` (server/main.ts) on an empty data directory, embedded PGlite and the
 * in-process queue as the README's quick start runs it, from the spawn to the first answer of /healthz (and to the
 * demo's credentials printed). Two kinds of start each round, in alternating order:
 *
 * - a newcomer's: a fresh checkout after `npm install`, whose postinstall prepared the embedded database's template
 *   (scripts/postinstall-pglite-template.mjs, run here as the install runs it, into a template folder of the round's
 *   own, and timed: the seconds it adds to the install). Issue 27's target: ready in under 3 s.
 * - the reference, cold: no template (an install that could not prepare it): PGlite's initdb, every migration, and
 *   keeping the template for the next start (server/core/db/pglite-template.ts).
 *
 * BENCH_ROUNDS rounds (3). Exits 1 when the newcomer's median misses 3 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childPort } from '../server/testing/free-port.ts';
import { report } from './report.ts';
import { stats } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_MS = 3000;
const ROOT = join(import.meta.dir, '..');

/** Milliseconds from the spawn to /healthz answering, and to the demo's last credential line. */
async function start(templateDir: string): Promise<{ healthz: number; demo: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'qc-bench-start-'));
  const port = childPort();
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATABASE_SESSION_URL: '',
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      QC_DATA_DIR: dir,
      QC_PGLITE_TEMPLATE_DIR: templateDir,
      QC_DEMO_ON_EMPTY: '1',
      QC_LOG_LEVEL: 'error',
    },
    stdout: 'pipe',
    stderr: 'inherit',
  });
  const demo = (async () => {
    let out = '';
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      out += decoder.decode(chunk, { stream: true });
      if (out.includes('Legacy api_key')) return performance.now() - started;
    }
    throw new Error(`server/main.ts exited with ${await proc.exited} before printing the demo's credentials`);
  })();
  // Read only when /healthz answered: a start that fails before says so through the loop below.
  demo.catch(() => {});
  try {
    let healthz: number | undefined;
    while (healthz === undefined) {
      if (proc.exitCode !== null) throw new Error(`server/main.ts exited with ${proc.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) healthz = performance.now() - started;
      } catch {}
      if (healthz === undefined) await Bun.sleep(10);
    }
    return { healthz, demo: await demo };
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The install's step that prepares the template, as package.json's postinstall runs it; its milliseconds. */
async function installStep(templateDir: string): Promise<number> {
  const started = performance.now();
  const proc = Bun.spawn(['node', 'scripts/postinstall-pglite-template.mjs'], {
    cwd: ROOT,
    env: { ...process.env, QC_PGLITE_TEMPLATE_DIR: templateDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  const ms = performance.now() - started;
  // The step never fails an install: a warning is how it says it did not prepare the template.
  if (!out.includes('prepared the embedded database')) throw new Error(`the install step did not prepare it: ${err}`);
  return ms;
}

const installs: number[] = [];
const newcomers: { healthz: number; demo: number }[] = [];
const colds: { healthz: number; demo: number }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const installed = mkdtempSync(join(tmpdir(), 'qc-bench-template-'));
  const none = mkdtempSync(join(tmpdir(), 'qc-bench-template-'));
  try {
    const newcomer = async () => {
      installs.push(await installStep(installed));
      newcomers.push(await start(installed));
    };
    const cold = async () => {
      colds.push(await start(none));
    };
    if (i % 2 === 0) {
      await newcomer();
      await cold();
    } else {
      await cold();
      await newcomer();
    }
  } finally {
    rmSync(installed, { recursive: true, force: true });
    rmSync(none, { recursive: true, force: true });
  }
}

const list = (xs: number[]) => xs.map((ms) => ms.toFixed(0)).join(', ');
const healthz = (xs: { healthz: number }[]) => xs.map((x) => x.healthz);
const demo = (xs: { demo: number }[]) => xs.map((x) => x.demo);
console.log(
  `start: npm start on an empty data dir, ms to /healthz (to the demo printed): newcomer (template prepared by npm install) ${list(healthz(newcomers))} (${list(demo(newcomers))}); cold (no template) ${list(healthz(colds))} (${list(demo(colds))}); the install step preparing the template: ${list(installs)}`,
);
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`;
const cold = stats(healthz(colds)).median;
const newcomer = stats(healthz(newcomers)).median;
report([
  {
    bench: 'start',
    name: `npm start after npm install (fresh checkout), to /healthz (median of ${ROUNDS})`,
    value: newcomer,
    unit: 'ms',
    reference: 'cold start, no template',
    referenceValue: cold,
    ratio: cold / newcomer,
    target: '< 3 s',
    met: newcomer < TARGET_MS,
    range: range(healthz(newcomers)),
  },
  {
    bench: 'start',
    name: `npm start after npm install, to the demo's credentials (median of ${ROUNDS})`,
    value: stats(demo(newcomers)).median,
    unit: 'ms',
    reference: 'cold start, no template',
    referenceValue: stats(demo(colds)).median,
    ratio: stats(demo(colds)).median / stats(demo(newcomers)).median,
    range: range(demo(newcomers)),
  },
  {
    bench: 'start',
    name: `npm install's step preparing the template (median of ${ROUNDS})`,
    value: stats(installs).median,
    unit: 'ms',
    range: range(installs),
  },
]);
