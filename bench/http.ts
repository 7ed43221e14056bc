/**
 * `npm run bench:http`: start-up time, the latency of an authenticated GET /v1/qc/properties over HTTP, and
 * what the rate limiter and the idempotency check add to a request, in process and with Redis.
 *
 * Uses DATABASE_URL when set (else embedded PGlite in a temporary directory) and REDIS_URL when set (else
 * the Redis figures are skipped). Writes one demo customer. Figures in milliseconds.
 *
 * The latency server runs with budgets counted but not enforced: the same limiter work on every request
 * (the one Redis script per check), without a 300-a-minute budget cutting the sample short.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { createDeps } from '../server/boot.ts';
import { authenticate } from '../server/core/auth/authenticate.ts';
import { parseConfig } from '../server/core/config.ts';
import type { Db } from '../server/core/db/db.ts';
import { openDb } from '../server/core/db/open.ts';
import type { Deps } from '../server/core/deps.ts';
import {
  finishIdempotentRequest,
  IdempotentReplay,
  keepRawBody,
  startIdempotentRequest,
} from '../server/core/idempotency/idempotent-request.ts';
import { applyRateLimit } from '../server/core/limits/rate-limit.ts';
import { closeRedis } from '../server/core/redis.ts';
import { createDemo } from '../server/demo/demo.ts';
import { demoSteps } from '../server/demo/demo-steps.ts';
import { listProperties } from '../server/properties/list-properties.ts';
import { updateProperty } from '../server/properties/update-property.ts';
import { childPort } from '../server/testing/free-port.ts';
import { benchConfig } from './bench-config.ts';
import { type Figure, report } from './report.ts';
import { type Stats, stats, timed } from './stats.ts';

const OPERATOR = 'bench-operator-token-0123456789';
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const databaseUrl = process.env.DATABASE_URL || undefined;
const redisUrl = process.env.REDIS_URL || undefined;

const ms = (x: number) => x.toFixed(3).padStart(8);
const figures: Figure[] = [];
let backend = '';
function row(label: string, s: Stats, extra = '') {
  figures.push({
    bench: 'http',
    name: `${backend}: ${label} (median)`,
    value: s.median,
    unit: 'ms',
    range: `p99 ${s.p99.toFixed(2)} ms`,
  });
  console.log(`  ${label.padEnd(54)} median ${ms(s.median)}  p95 ${ms(s.p95)}  p99 ${ms(s.p99)}  (n=${s.n})${extra}`);
}

/** Spawn to first 200 on /healthz. */
async function startup(env: Record<string, string | undefined>): Promise<number> {
  const port = childPort();
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, 'server/main.ts'], {
    env: {
      ...process.env,
      QC_LOG_LEVEL: 'error',
      QC_DEMO_ON_EMPTY: '0',
      QC_OPERATOR_TOKEN: OPERATOR,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdout: 'ignore',
    stderr: 'inherit',
  });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return performance.now() - t0;
      } catch {}
      await Bun.sleep(2);
    }
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
  }
}

async function benchStartup() {
  console.log('\nStart-up (spawn `bun server/main.ts` until /healthz answers; median of 3)');
  const line = (label: string, value: number) => console.log(`  ${label.padEnd(54)} ${ms(value)} ms`);
  const dataDir = mkdtempSync(join(tmpdir(), 'qc-bench-'));
  try {
    const embedded = { DATABASE_URL: '', DATABASE_SESSION_URL: '', REDIS_URL: '', QC_DATA_DIR: dataDir };
    line('embedded PGlite, empty data dir (migrations, keys)', await startup(embedded));
    const warm = [await startup(embedded), await startup(embedded), await startup(embedded)];
    line('embedded PGlite, existing data dir', stats(warm).median);
    if (databaseUrl) {
      const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl ?? '', QC_DATA_DIR: dataDir };
      const runs = [await startup(env), await startup(env), await startup(env)];
      line(`PostgreSQL${redisUrl ? ' + Redis' : ''} (migrated)`, stats(runs).median);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One backend of counters and records: a service in this process on a real port, sharing the database. */
async function benchBackend(name: string, db: Db, dataDir: string, redis: string | undefined) {
  const config = benchConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis,
    QC_DATA_DIR: dataDir,
    QC_OPERATOR_TOKEN: OPERATOR,
  });
  const deps = await createDeps(config, {
    db,
    enforceRateLimits: false,
    redisKeyPrefix: `qc-bench:${crypto.randomUUID()}:`,
  });
  const app = buildApp(deps, { operatorToken: OPERATOR });
  app.listen({ port: 0, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server?.port}`;
  const demo = await createDemo(deps, demoSteps);
  const auth = { authorization: `Bearer ${demo.personal_token}` };
  console.log(`\n${name}`);
  backend = redis ? 'Redis' : 'in-process';

  const get = async () => {
    const res = await fetch(`${base}/v1/qc/properties`, { headers: auth });
    if (res.status !== 200) throw new Error(`GET /properties answered ${res.status}`);
    await res.arrayBuffer();
  };
  await timed(200, get);
  const reads = await timed(CALLS, get);
  const seconds = reads.reduce((s, x) => s + x, 0) / 1000;
  row(
    'GET /v1/qc/properties over HTTP (personal token)',
    stats(reads),
    `  ${(CALLS / seconds).toFixed(0)} req/s sequential`,
  );

  await benchLimiter(deps, demo.personal_token);
  await benchIdempotency(deps, demo.personal_token);

  const property = demo.properties[0]?.external_property_id;
  let n = 0;
  const patch = (keyed: boolean) => async () => {
    const headers: Record<string, string> = { ...auth, 'content-type': 'application/json' };
    if (keyed) headers['idempotency-key'] = `bench-${crypto.randomUUID()}`;
    const res = await fetch(`${base}/v1/qc/properties/${property}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ partner_name: `Bench ${++n}` }),
    });
    if (res.status !== 200) throw new Error(`PATCH answered ${res.status}`);
    await res.arrayBuffer();
  };
  // Interleaved, so both see the same load on a shared machine.
  const plain: number[] = [];
  const keyed: number[] = [];
  await timed(50, patch(false));
  for (let i = 0; i < CALLS / 2; i++) (i % 2 ? keyed : plain).push(...(await timed(1, patch(i % 2 === 1))));
  const [p, k] = [stats(plain), stats(keyed)];
  row('PATCH /properties/{id} over HTTP, no key', p);
  row('PATCH /properties/{id} over HTTP, new Idempotency-Key', k, `  (+${(k.median - p.median).toFixed(3)} median)`);

  await app.stop();
  if (deps.redis) await closeRedis(deps.redis);
}

/** The rate-limit check alone, as the pipeline runs it: one budget spent, headers set. */
async function benchLimiter(deps: Deps, token: string) {
  const principal = await authenticate(deps, `Bearer ${token}`);
  const check = () =>
    applyRateLimit(deps, listProperties, new Request('http://localhost/v1/qc/properties'), { principal });
  await timed(200, check);
  row('added: rate-limit check', stats(await timed(CALLS, check)));
}

/** The idempotency check alone: claim before the handler, store after it; and a replay. */
async function benchIdempotency(deps: Deps, token: string) {
  const principal = await authenticate(deps, `Bearer ${token}`);
  const body = JSON.stringify({ partner_name: 'Bench' });
  const keyedRequest = (key: string) => {
    const request = new Request('http://localhost/v1/qc/properties/x', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body,
    });
    keepRawBody(request, new TextEncoder().encode(body));
    return request;
  };
  const claimAndStore = async (key: string) => {
    const request = keyedRequest(key);
    await startIdempotentRequest(deps, updateProperty, request, principal);
    await finishIdempotentRequest(
      deps,
      request,
      { status: 'ok', message: 'ok', data: {} },
      { status: 200, headers: {} },
    );
  };
  const firstTime = () => claimAndStore(`first-${crypto.randomUUID()}`);
  await timed(100, firstTime);
  row('added: idempotency, new key (claim + store)', stats(await timed(CALLS, firstTime)));

  const replayKey = `replay-${crypto.randomUUID()}`;
  await claimAndStore(replayKey);
  const replay = async () => {
    try {
      await startIdempotentRequest(deps, updateProperty, keyedRequest(replayKey), principal);
      throw new Error('expected a replay');
    } catch (err) {
      if (!(err instanceof IdempotentReplay)) throw err;
    }
  };
  row('added: idempotency, repeated key (replay)', stats(await timed(CALLS, replay)));
}

console.log(
  `bench:http: ${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}, ${redisUrl ? `Redis ${redisUrl}` : 'no REDIS_URL (Redis rows skipped)'}, ${CALLS} calls per row`,
);
await benchStartup();
const dataDir = mkdtempSync(join(tmpdir(), 'qc-bench-data-'));
const db = await openDb(
  parseConfig({
    DATABASE_URL: databaseUrl,
    QC_DATA_DIR: dataDir,
    QC_DB_TIMEOUT_MS: process.env.QC_DB_TIMEOUT_MS,
    QC_KEY_ENCRYPTION_KEY: process.env.QC_KEY_ENCRYPTION_KEY,
  }),
);
try {
  await benchBackend('In-process limiter and idempotency store', db, dataDir, undefined);
  if (redisUrl) await benchBackend('Redis limiter and idempotency store', db, dataDir, redisUrl);
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
report(figures);
process.exit();
