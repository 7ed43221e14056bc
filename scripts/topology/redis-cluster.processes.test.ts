import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortRun } from '../../server/testing/free-port.ts';
import { RedisCluster } from './redis-cluster.ts';

describe('RedisCluster.start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qc-redis-cluster-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('names why a node did not start, from its log, and stops the nodes it had started', async () => {
    const base = freePortRun(23000, 23999, 4);
    // Something else holds the second node's port: redis-server logs the failed bind and exits.
    const squatter = Bun.listen({ hostname: '127.0.0.1', port: base + 1, socket: { data() {} } });
    const cluster = new RedisCluster({
      dir,
      ports: [base, base + 1],
      busPorts: [base + 2, base + 3],
      replicas: 0,
      nodeTimeoutMs: 1000,
    });
    try {
      const started = cluster.start();
      await expect(started).rejects.toThrow(/redis-server on \d+.*the end of its log:[\s\S]*Address already in use/);
      expect(cluster.pid(base)).toBeUndefined();
    } finally {
      squatter.stop(true);
      await cluster.stop();
    }
  }, 30_000);
});
