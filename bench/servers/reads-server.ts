/**
 * A server process for `bench/reads.ts`, started as `bun bench/servers/reads-server.ts <qc|bare> <port>`:
 *   qc    the service as server/main.ts builds it (logging at info to stdout, Redis rate-limit script on
 *         every request), with budgets counted but not enforced so a 20-connection load is not cut short;
 *   bare  the reference: a bare Elysia handler running the same SQL on the same database and answering
 *         the same JSON, with nothing else (no authentication, no limiter, no log line);
 *   budget  the bare handler after the one thing a read of the service cannot skip: spending its share of the
 *         budget every process shares, the same script through the same counters (server/core/limits/), so the
 *         service's cost splits into the Redis round trip and the rest of its pipeline.
 * BENCH_PROPERTY_IDS (comma separated) are the ids the bare handler lists: the token's allow-list.
 */
import { Elysia } from 'elysia';
import { buildApp } from '../../server/app.ts';
import { createDeps } from '../../server/boot.ts';
import { parseConfig } from '../../server/core/config.ts';
import { openDb } from '../../server/core/db/open.ts';
import { ok, pageMeta } from '../../server/core/http/envelope.ts';
import { windowsAt } from '../../server/core/limits/counters.ts';
import { RedisCounters } from '../../server/core/limits/redis-counters.ts';
import { createLog } from '../../server/core/log.ts';
import { connectRedis, createRedis } from '../../server/core/redis.ts';
import type { PropertyRow } from '../../server/core/resolve.ts';
import { propertyView } from '../../server/properties/view.ts';

const [mode, port] = [process.argv[2], Number(process.argv[3])];
const config = parseConfig(process.env);

if (mode === 'qc') {
  const deps = await createDeps(config, { enforceRateLimits: false });
  buildApp(deps, { operatorToken: config.operatorToken as string }).listen({ port, hostname: '127.0.0.1' });
} else if (mode === 'bare' || mode === 'budget') {
  const db = await openDb(config);
  const ids = (process.env.BENCH_PROPERTY_IDS ?? '').split(',').map(Number);
  const log = createLog('silent');
  const redis = mode === 'budget' && config.redis ? createRedis(config.redis, log, 'requests') : undefined;
  if (redis) await connectRedis(redis, log);
  const counters = redis ? new RedisCounters(redis, 'qc-bench:') : undefined;
  const budget = { perMinute: 300, perDay: 100_000 };
  new Elysia()
    .get('/v1/qc/properties', async () => {
      await counters?.take('reads:bench', budget, windowsAt(new Date()));
      const rows = await db.sql<PropertyRow>`
        select * from properties where id = any(${ids}::bigint[])
        order by created_at, id limit ${200} offset ${0}`;
      return ok({ properties: rows.map(propertyView), meta: pageMeta(ids.length, 1, 200) });
    })
    .get('/healthz', () => 'ok')
    .listen({ port, hostname: '127.0.0.1' });
} else {
  console.error('usage: reads-server.ts <qc|bare|budget> <port>');
  process.exit(2);
}

// An orderly exit, so `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
