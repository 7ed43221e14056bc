/**
 * `npm run test:cluster`: the suite on a private Redis Cluster (3 masters, 3 replicas, started here from
 * Debian's redis-server in a temporary folder and stopped at the end, also on failure or Ctrl-C), with
 * REDIS_URL=redis+cluster://...: rate limits, idempotency records and the BullMQ queue all live on it.
 * Runs `npm test`'s runner (scripts/test.ts, PostgreSQL as it decides) on every test file, or on the
 * filters given (`npm run test:cluster -- server/webhooks`); the embedded smoke pass, which uses no Redis,
 * is left out. Ports: free ones, or QC_CLUSTER_BASE_PORT..+11 when set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../server/testing/free-port.ts';
import { RedisCluster } from './topology/redis-cluster.ts';

const base = process.env.QC_CLUSTER_BASE_PORT ? Number(process.env.QC_CLUSTER_BASE_PORT) : undefined;
const port = (i: number) => (base === undefined ? freePort() : base + i);
const dir = mkdtempSync(join(tmpdir(), 'qc-redis-cluster-'));
const ports = [0, 1, 2, 3, 4, 5].map(port);
const busPorts = [6, 7, 8, 9, 10, 11].map(port);

let cluster: RedisCluster | undefined;
const cleanUp = async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(130)));
}

let code = 1;
try {
  console.log(`== starting a Redis Cluster (3 masters, 3 replicas) on ports ${ports.join(', ')}`);
  cluster = await RedisCluster.start({ dir, ports, busPorts, replicas: 1, nodeTimeoutMs: 2000 });
  const filters = process.argv.slice(2);
  const proc = Bun.spawn([process.execPath, 'scripts/test.ts', ...(filters.length ? filters : ['.'])], {
    env: { ...process.env, REDIS_URL: cluster.url },
    stdout: 'inherit',
    stderr: 'inherit',
  });
  code = await proc.exited;
} finally {
  await cleanUp();
}
process.exit(code);
