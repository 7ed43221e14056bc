/**
 * `npm install`'s last step (package.json postinstall, after patch-package): prepares the embedded database's
 * template (scripts/prepare-pglite-template.ts) so the first `npm start` of a checkout skips PGlite's initdb and the
 * migrations. A convenience, so it must never fail or hang an install: whatever goes wrong is one line of warning
 * and exit code 0, and the first start builds the template itself as it always could.
 *
 * Plain JavaScript for Node on purpose: npm runs it, and bun may be missing (an unsupported platform, an install
 * with its scripts off) or broken; this file is what notices.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** initdb and every migration take about 3.5 s on a quiet machine and were seen near 20 s under load 20. */
const TIMEOUT_MS = 60_000;
const LATER = 'the first npm start will create it (a few seconds)';

function main() {
  if (process.env.QC_PGLITE_TEMPLATE_DIR === 'off') return;
  const run = spawnSync('bun', [fileURLToPath(new URL('prepare-pglite-template.ts', import.meta.url))], {
    // The checkout: where the template goes by default (node_modules/.cache) and where its modules are.
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
    // PGlite's initdb runs in WebAssembly on bun's main thread: only SIGKILL is sure to stop it.
    killSignal: 'SIGKILL',
  });
  if (run.error?.code === 'ENOENT') return warn(`skipped preparing the embedded database (bun not found); ${LATER}`);
  if (run.error?.code === 'ETIMEDOUT' || run.signal)
    return warn(`gave up preparing the embedded database after ${TIMEOUT_MS / 1000} s; ${LATER}`);
  if (run.error) return warn(`could not prepare the embedded database (${run.error.message}); ${LATER}`);
  if (run.status !== 0) return warn(`could not prepare the embedded database (${reason(run.stderr)}); ${LATER}`);
  if (run.stdout.trim()) console.log(run.stdout.trim().split('\n')[0]);
}

/** bun's own "error: ..." line when the script could not even load, else the script's last line. */
function reason(stderr) {
  const lines = String(stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const line = lines.find((l) => l.startsWith('error:')) ?? lines.at(-1) ?? 'no message';
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

function warn(line) {
  console.warn(`qc: warning: ${line}`);
}

try {
  main();
} catch (err) {
  warn(`could not prepare the embedded database (${err instanceof Error ? err.message : err}); ${LATER}`);
}
