/**
 * `npm run bench:shadow`: what shadow mode adds to a legacy request over the legacy service's own time.
 *
 * A real port (`bun server/main.ts` on PostgreSQL from DATABASE_URL, Redis from REDIS_URL) with a demo customer
 * whose legacy key is flipped to shadow, in front of `harness serve` (the legacy stand-in, its own process) on a
 * corpus of that key's reads. BENCH_SHADOW_REQUESTS (default 2000) calls of each kind, sequential and
 * interleaved (direct, shadowed, direct, ...), so load on the shared machine hits both alike:
 *   - direct: the client to the stand-in (the upstream's own time, the reference),
 *   - shadowed: the client to the port, which reads the key, forwards to the stand-in and answers its bytes.
 * The added latency is shadowed minus direct, per pair; its median is the figure (target: under 1 ms). The
 * comparisons (dry runs) run meanwhile in the port, off the request path, so their cost shows only as load.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../harness/compare/exchange.ts';
import { CorpusWriter } from '../harness/corpus/corpus-writer.ts';
import { startHarness } from '../harness/testing/harness-cli.ts';
import { ServerProcess } from '../server/testing/server-process.ts';
import { report } from './report.ts';
import { type Stats, stats } from './stats.ts';

const REQUESTS = Number(process.env.BENCH_SHADOW_REQUESTS ?? 2000);
const WARM_UP = 200;
const OPERATOR = 'bench-operator-token-0123456789';

if (!process.env.DATABASE_URL) {
  console.error('bench:shadow measures the port on PostgreSQL: set DATABASE_URL (and REDIS_URL)');
  process.exit(2);
}

const port = await ServerProcess.start({
  DATABASE_URL: process.env.DATABASE_URL,
  REDIS_URL: process.env.REDIS_URL,
  QC_OPERATOR_TOKEN: OPERATOR,
});
const ops = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${port.url}/ops${path}`, {
    method,
    headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${method} /ops${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
};

const demo = await ops('POST', '/demo');
const apiKey = demo.legacy_api_key as string;
const keyId = demo.legacy_api_key_id as number;
const paths = [
  'property/getRoomsDetails',
  'property/getPropertySettings?names=property,rooms',
  'booking/getBookings',
].map((p) => {
  const [endpoint, query] = p.split('?');
  return `/api/pms/v1/${endpoint}?api_key=${encodeURIComponent(apiKey)}${query ? `&${query}` : ''}`;
});

// The stand-in answers what the port answers now (key live): the legacy service and the port in step.
const corpus = join(mkdtempSync(join(tmpdir(), 'qc-bench-shadow-')), 'legacy.jsonl');
const writer = await CorpusWriter.open(corpus);
for (const path of paths) {
  const res = await fetch(`${port.url}${path}`);
  const exchange: Exchange = {
    method: 'GET',
    url: `http://legacy.example${path}`,
    requestHeaders: [],
    requestBody: null,
    status: res.status,
    responseHeaders: [['content-type', res.headers.get('content-type') ?? '']],
    responseBody: new Uint8Array(await res.arrayBuffer()),
  };
  await writer.append(exchange);
}
await writer.close();
const standIn = await startHarness(['serve', corpus]);
await ops('PUT', `/legacy-keys/${keyId}/cutover`, {
  mode: 'shadow',
  upstream_url: standIn.url,
  allow_private_upstream: true,
});

async function call(base: string, i: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + (paths[i % paths.length] as string));
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${base}: ${res.status}`);
  return performance.now() - t0;
}

for (let i = 0; i < WARM_UP; i++) {
  await call(standIn.url, i);
  await call(port.url, i);
}
const direct: number[] = [];
const shadowed: number[] = [];
const added: number[] = [];
for (let i = 0; i < REQUESTS; i++) {
  // Alternate which goes first, so neither always meets a warmer connection or cache.
  let a: number;
  let b: number;
  if (i % 2) {
    a = await call(standIn.url, i);
    b = await call(port.url, i);
  } else {
    b = await call(port.url, i);
    a = await call(standIn.url, i);
  }
  direct.push(a);
  shadowed.push(b);
  added.push(b - a);
}

// The comparisons trail the traffic (each is a dry run): wait until every shadowed call is compared or dropped.
const shadowedCalls = WARM_UP + REQUESTS;
const caughtUpFrom = performance.now();
let days: Array<{ compared: number; different: number; overflowed: number }> = [];
const total = (field: 'compared' | 'different' | 'overflowed') => days.reduce((s, d) => s + d[field], 0);
do {
  await Bun.sleep(250);
  days = (await ops('GET', `/legacy-keys/${keyId}/shadow-scores`)).days as typeof days;
} while (total('compared') + total('overflowed') < shadowedCalls && performance.now() - caughtUpFrom < 120_000);
const caughtUpMs = performance.now() - caughtUpFrom;

const row = (label: string, s: Stats) =>
  `| ${label} | ${s.median.toFixed(3)} | ${s.p95.toFixed(3)} | ${s.p99.toFixed(3)} | ${s.mean.toFixed(3)} |`;
console.log(
  `\nShadow mode, ${REQUESTS} sequential calls of each kind, interleaved (${paths.length} legacy reads in turn)\n`,
);
console.log('| Path | median ms | p95 ms | p99 ms | mean ms |');
console.log('|---|---|---|---|---|');
console.log(row('direct to the upstream (reference)', stats(direct)));
console.log(row('through the port in shadow mode', stats(shadowed)));
console.log(row('added by shadow mode (per pair)', stats(added)));
const median = stats(added).median;
report([
  {
    bench: 'shadow',
    name: 'latency shadow mode adds to a legacy read (median ms)',
    value: median,
    unit: 'ms',
    reference: 'direct to the upstream',
    referenceValue: stats(direct).median,
    target: '< 1 ms',
    met: median < 1,
    range: `p95 ${stats(added).p95.toFixed(2)} ms`,
  },
]);
const load = loadavg()
  .map((x) => x.toFixed(1))
  .join(' ');
console.log(
  `Comparisons in the port meanwhile: ${total('compared')} compared, ${total('different')} different, ` +
    `${total('overflowed')} dropped by the bounded queue (QC_LEGACY_SHADOW_QUEUE, default 1000); caught up ` +
    `${(caughtUpMs / 1000).toFixed(1)} s after the traffic ended; load average ${load}.`,
);

await standIn.stop();
await port.stop();
