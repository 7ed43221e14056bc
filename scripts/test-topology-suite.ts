/**
 * The whole functional suite on the production topology's engines, each started here in a temporary folder on
 * private ports from Debian's packages and stopped at the end (also on failure or Ctrl-C):
 *
 * - `--pooler` (`npm run test:pooler`): DATABASE_URL through PgBouncer in transaction mode in front of a
 *   private PostgreSQL, DATABASE_SESSION_URL the direct URL (LISTEN, migrations, tests' own connections).
 * - `--cluster` (`npm run test:cluster`): REDIS_URL a private Redis Cluster (3 masters, 3 replicas): rate
 *   limits, idempotency records and the BullMQ queue all live on it.
 * - both (`npm run test:production`, what CI runs): one pass that covers both, in the time of one.
 *
 * Other arguments are test filters (`npm run test:pooler -- server/bookings`). Without `--pooler` the suite
 * uses DATABASE_URL as given, else a database of its own (scripts/test.ts). Prints `N passed, N failed` last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortRun } from '../server/testing/free-port.ts';
import { runSuite } from './suite-process.ts';
import { type PgBouncer, startPgBouncer } from './topology/pgbouncer.ts';
import { type PostgresPair, startPostgresPair } from './topology/postgres.ts';
import { RedisCluster } from './topology/redis-cluster.ts';
import { CODE_ONLY, EMBEDDED_ENGINE, PRIVATE_ENGINES } from './topology-suite-files.ts';

const args = process.argv.slice(2);
const pooler = args.includes('--pooler');
const cluster = args.includes('--cluster');
const filters = args.filter((arg) => arg !== '--pooler' && arg !== '--cluster');
const DB = 'qc_topology_suite';
/**
 * Test files this pass leaves out: bunfig.toml's (a pattern given on the command line replaces its list, so they are
 * read from it and given again), and those whose outcome cannot depend on DATABASE_URL or REDIS_URL
 * (scripts/topology-suite-files.ts).
 */
const bunfig = Bun.TOML.parse(await Bun.file(join(import.meta.dir, '..', 'bunfig.toml')).text()) as {
  test?: { pathIgnorePatterns?: string[] };
};
const IGNORED = [...(bunfig.test?.pathIgnorePatterns ?? []), ...EMBEDDED_ENGINE, ...PRIVATE_ENGINES, ...CODE_ONLY];

let pg: PostgresPair | undefined;
let bouncer: PgBouncer | undefined;
let redis: RedisCluster | undefined;
const dir = mkdtempSync(join(tmpdir(), 'qc-topology-suite-'));
const cleanUp = async () => {
  await bouncer?.stop();
  await pg?.stop();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(130)));
}

let code = 1;
try {
  const env: Record<string, string | undefined> = { ...process.env, QC_CHECK_RESPONSES: '1' };
  env.REDIS_URL ??= 'redis://127.0.0.1:6379';
  if (pooler) {
    const base = freePortRun(21000, 21999, 2);
    pg = await startPostgresPair({ port: base, standby: false, databases: [DB] });
    bouncer = await startPgBouncer({ port: base + 1, upstream: { port: pg.primaryPort }, poolSize: 40 });
    env.DATABASE_URL = bouncer.url(DB);
    env.DATABASE_SESSION_URL = pg.primaryUrl(DB);
    console.log(`== PostgreSQL on ${pg.primaryPort}, PgBouncer (transaction mode) on ${bouncer.port}`);
  }
  if (cluster) {
    redis = await RedisCluster.startOnFreePorts({ dir, replicas: 1, nodeTimeoutMs: 2000 });
    env.REDIS_URL = redis.url;
    console.log(`== Redis Cluster (3 masters, 3 replicas) on ${redis.options.ports.join(', ')}`);
  }
  const label = [pooler && 'PgBouncer', cluster && 'Redis Cluster'].filter(Boolean).join(' + ') || 'plain';
  // The suite's own runner makes a database when DATABASE_URL is unset; with the pooler it is ours.
  const suite = pooler
    ? await runSuite(
        `suite (${label})`,
        ['test', '--timeout=30000', ...IGNORED.map((p) => `--path-ignore-patterns=${p}`), ...filters],
        env,
      )
    : await runSuite(`suite (${label})`, ['scripts/test.ts', ...(filters.length ? filters : ['.'])], env);
  console.log(`\n${suite.passed} passed, ${suite.failed} failed`);
  code = suite.failed ? 1 : 0;
} finally {
  await cleanUp();
}
process.exit(code);
