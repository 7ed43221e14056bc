/**
 * `npm test`: the whole suite on real PostgreSQL and Redis, then the smoke suite on the embedded default.
 *
 * DATABASE_URL / REDIS_URL are used as given (CI sets them to a fresh database). Unset, the suite creates a
 * database of its own for this run on the machine's PostgreSQL at 127.0.0.1:5432 (`qc_test_<time>_<pid>`,
 * dropped when the run ends), so two runs never share or drop each other's data, and uses Redis at 127.0.0.1:6379.
 * Prints `N passed, N failed` last.
 */
import postgres from 'postgres';

const env = { ...process.env };
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
let ownDatabase: string | undefined;
if (!env.DATABASE_URL) {
  ownDatabase = `qc_test_${Date.now()}_${process.pid}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${ownDatabase}`);
  await admin.end();
  env.DATABASE_URL = `postgres://postgres@127.0.0.1:5432/${ownDatabase}`;
}
env.REDIS_URL ??= 'redis://127.0.0.1:6379';
// Every success body is checked against its route's declared response schema (server/core/http/mount-routes.ts).
env.QC_CHECK_RESPONSES = '1';

const bun = process.execPath;
const filters = process.argv.slice(2);

async function run(label: string, args: string[], runEnv: Record<string, string | undefined>) {
  console.log(`\n== ${label}: bun ${args.join(' ')}`);
  const proc = Bun.spawn([bun, ...args], { env: runEnv, stdout: 'pipe', stderr: 'pipe' });
  let tail = '';
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk);
      out.write(text);
      tail = (tail + text).slice(-4000);
    }
  };
  const pumped = Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  // A server process a failed test left running inherits our pipes and would keep them open for ever: once
  // the test runner itself has exited, read what is buffered and stop waiting.
  await Promise.race([pumped, Bun.sleep(3000)]);
  const passed = Number(tail.match(/^\s*(\d+) pass/m)?.[1] ?? 0);
  const failed = Number(tail.match(/^\s*(\d+) fail/m)?.[1] ?? 0);
  // A crashed runner that printed no summary counts as one failure.
  return { passed, failed: failed || (code !== 0 ? 1 : 0) };
}

// The per-test timeout is also in bunfig.toml; passed here too because some bun versions ignored it there.
const main = await run('suite (PostgreSQL + Redis)', ['test', '--timeout=30000', ...filters], env);
const smokeEnv = { ...env, DATABASE_URL: undefined, REDIS_URL: undefined, QC_TEST_EMBEDDED: '1' };
const smoke = filters.length
  ? { passed: 0, failed: 0 }
  : await run(
      'smoke (embedded PGlite, in-process queue)',
      ['test', '--timeout=30000', '--path-ignore-patterns=node_modules/**', './server/smoke'],
      smokeEnv,
    );

if (ownDatabase) {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  // Only our own database, and only now that every test process has exited.
  await admin.unsafe(`drop database if exists ${ownDatabase} with (force)`);
  await admin.end();
}

const passed = main.passed + smoke.passed;
const failed = main.failed + smoke.failed;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
