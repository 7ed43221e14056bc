/**
 * `npm test`: the whole suite on real PostgreSQL and Redis and, beside it, the smoke suite and every happy-path test
 * on the embedded default.
 * `npm run test:embedded` (`--embedded`): the whole suite on the embedded default alone (PGlite, in-process
 * queue and caches); the tests that hold two transactions at once skip there (server/testing/harness.ts).
 *
 * DATABASE_URL / REDIS_URL are used as given (CI sets them to a fresh database). Unset, the suite creates a
 * database of its own for this run on the machine's PostgreSQL at 127.0.0.1:5432 (`qc_test_<time>_<pid>`,
 * dropped when the run ends), so two runs never share or drop each other's data, and uses Redis at 127.0.0.1:6379.
 * Prints `N passed, N failed` last.
 */
import postgres from 'postgres';
import { runSuite } from './suite-process.ts';

const embeddedOnly = process.argv.includes('--embedded');
const filters = process.argv.slice(2).filter((arg) => arg !== '--embedded');
const TEST_ARGS = ['test', '--timeout=30000', '--path-ignore-patterns=node_modules/**'];

if (embeddedOnly) {
  const env = {
    ...process.env,
    DATABASE_URL: undefined,
    DATABASE_SESSION_URL: undefined,
    REDIS_URL: undefined,
    QC_TEST_EMBEDDED: '1',
  };
  const { passed, failed } = await runSuite('suite (embedded PGlite, in-process queue)', [...TEST_ARGS, ...filters], {
    ...env,
    QC_CHECK_RESPONSES: '1',
  });
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

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

const smokeEnv = {
  ...env,
  DATABASE_URL: undefined,
  DATABASE_SESSION_URL: undefined,
  REDIS_URL: undefined,
  QC_TEST_EMBEDDED: '1',
};
// The smoke suite and every feature's happy paths (about a minute): the schema, the migrations and the routes as
// `npm start` runs them with no settings. The whole suite there: `npm run test:embedded` (about 6 minutes). It runs
// beside the main suite, which leaves a third of two cores idle waiting on its engines (the smoke suite is one busy
// thread of PGlite), and its output is printed after the main suite's.
const smokeRun = filters.length
  ? undefined
  : runSuite(
      'smoke and happy paths (embedded PGlite, in-process queue)',
      [...TEST_ARGS, 'server/smoke/', 'happy.test'],
      smokeEnv,
      { hold: true },
    );
// QC_TEST_SMOKE_DONE=<file>: written once the smoke suite has ended, however it ended (its failures are counted below,
// where it is awaited), so a caller can start more work on the cores it leaves (.ci/run starts the suite on the
// production topology then; if the file cannot be written, .ci/run starts it when this run ends).
const smokeDoneFile = process.env.QC_TEST_SMOKE_DONE;
if (smokeDoneFile)
  void (smokeRun ?? Promise.resolve())
    .catch(() => {})
    .then(() => Bun.write(smokeDoneFile, 'done\n'))
    .catch(() => {});
// The per-test timeout is also in bunfig.toml; passed here too because some bun versions ignored it there.
const main = await runSuite('suite (PostgreSQL + Redis)', ['test', '--timeout=30000', ...filters], env);
const smoke = (await smokeRun) ?? { passed: 0, failed: 0, held: '' };
process.stdout.write(smoke.held);

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
