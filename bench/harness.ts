/**
 * `npm run bench:harness`: the compatibility harness at the size the migration team runs it.
 *
 * 1. A real port (`bun server/main.ts` on PostgreSQL from DATABASE_URL, Redis from REDIS_URL) with a demo
 *    customer; BENCH_REQUESTS (default 20000) legacy calls of a PMS session (reads and absolute writes, replayable
 *    against the same state) recorded through `harness record` into a .jsonl corpus.
 * 2. Reference: a raw fetch loop sending the same requests at the same concurrency, no comparison.
 * 3. `harness replay` of the corpus against the port, as a separate process (as users run it): requests replayed
 *    and compared per second, its peak memory (max RSS), and its score (must be 0). Then the same replay against
 *    `harness serve` of the corpus, which has no database behind it: the harness's own ceiling.
 * 4. `harness compare` of two 100k-entry .jsonl corpora (BENCH_COMPARE_ENTRIES) with planted differences: time
 *    and peak memory, against the corpora's size on disk (memory stays bounded: both are streamed).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '../harness/compare/exchange.ts';
import { pathAndQueryOf } from '../harness/compare/exchange.ts';
import type { RunSummary } from '../harness/compare/score.ts';
import { CorpusWriter } from '../harness/corpus/corpus-writer.ts';
import { readCorpus } from '../harness/corpus/read-corpus.ts';
import { startHarness } from '../harness/testing/harness-cli.ts';
import { LegacyPort } from '../harness/testing/legacy-port.ts';
import { replayableCalls, send, settle } from '../harness/testing/pms-session.ts';
import { report } from './report.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const COMPARE_ENTRIES = Number(process.env.BENCH_COMPARE_ENTRIES ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PLANTED = 100;

if (!process.env.DATABASE_URL) {
  console.error('bench:harness measures the port on PostgreSQL: set DATABASE_URL (and REDIS_URL)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'qc-bench-harness-'));
const port = await LegacyPort.start();
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const rate = (n: number, ms: number) => `${Math.round((n * 1000) / ms)}/s`;

async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

async function harnessProcess(args: string[]): Promise<{ ms: number; maxRss: number; code: number; stdout: string }> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, 'harness/cli.ts', ...args], { stdout: 'pipe', stderr: 'inherit' });
  const stdout = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - started;
  return { ms, maxRss: proc.resourceUsage()?.maxRSS ?? 0, code, stdout };
}

try {
  const demo = await port.demo();
  await settle(port.url, demo);
  const calls = replayableCalls(demo);
  const corpus = join(dir, 'legacy.jsonl');

  console.log(`harness bench: port ${port.url} on PostgreSQL, ${REQUESTS} legacy requests, concurrency ${CONCURRENCY}`);
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', corpus]);
  let started = performance.now();
  await pool(REQUESTS, CONCURRENCY, async (i) => {
    await (await send(proxy.url, demo.api_key, calls[i % calls.length] as (typeof calls)[number])).arrayBuffer();
  });
  const recordMs = performance.now() - started;
  await proxy.stop();
  console.log(
    `  record through the proxy        ${rate(REQUESTS, recordMs).padStart(8)}   (${mb(statSync(corpus).size)} corpus)`,
  );

  // Reference: the same requests, raw, from this process.
  const requests: Array<Pick<Exchange, 'method' | 'url' | 'requestBody'>> = [];
  for await (const e of readCorpus(corpus)) requests.push({ method: e.method, url: e.url, requestBody: e.requestBody });
  started = performance.now();
  await pool(requests.length, CONCURRENCY, async (i) => {
    const r = requests[i] as (typeof requests)[number];
    await (await fetch(port.url + pathAndQueryOf(r.url), { method: r.method, body: r.requestBody })).arrayBuffer();
  });
  const rawMs = performance.now() - started;
  console.log(`  reference: raw fetch loop       ${rate(requests.length, rawMs).padStart(8)}`);

  const replayJson = join(dir, 'replay.json');
  const replay = await harnessProcess([
    'replay',
    corpus,
    '--target',
    port.url,
    '--concurrency',
    String(CONCURRENCY),
    '--json',
    replayJson,
  ]);
  const replayed = (await Bun.file(replayJson).json()) as RunSummary;
  console.log(
    `  harness replay (process)        ${rate(replayed.exchanges, replay.ms).padStart(8)}   max RSS ${mb(replay.maxRss)}, ` +
      `score ${replayed.score} (${replayed.identical} identical of ${replayed.exchanges}), exit ${replay.code}`,
  );

  // The harness's own ceiling: the same replay against `harness serve` of the corpus (no database behind it).
  const stand = await startHarness(['serve', corpus]);
  const standJson = join(dir, 'stand.json');
  const standIn = await harnessProcess([
    'replay',
    corpus,
    '--target',
    stand.url,
    '--concurrency',
    String(CONCURRENCY),
    '--json',
    standJson,
  ]);
  await stand.stop();
  const standSummary = (await Bun.file(standJson).json()) as RunSummary;
  console.log(
    `  harness replay vs harness serve ${rate(standSummary.exchanges, standIn.ms).padStart(8)}   max RSS ${mb(standIn.maxRss)}, ` +
      `score ${standSummary.score} (the harness's own ceiling on this machine)`,
  );

  // Two 100k-entry corpora: the recorded one repeated; the candidate with PLANTED changed answers.
  const primary = join(dir, 'primary.jsonl');
  const candidate = join(dir, 'candidate.jsonl');
  const a = await CorpusWriter.open(primary);
  const b = await CorpusWriter.open(candidate);
  const every = Math.floor(COMPARE_ENTRIES / PLANTED);
  let written = 0;
  while (written < COMPARE_ENTRIES) {
    for await (const exchange of readCorpus(corpus)) {
      if (written === COMPARE_ENTRIES) break;
      void a.append(exchange);
      const planted = written % every === every - 1 ? { ...exchange, status: exchange.status + 1 } : exchange;
      await b.append(planted);
      written++;
    }
  }
  await a.close();
  await b.close();
  const compareJson = join(dir, 'compare.json');
  const compared = await harnessProcess(['compare', primary, candidate, '--json', compareJson]);
  const summary = (await Bun.file(compareJson).json()) as RunSummary;
  console.log(
    `  harness compare, 2 x ${COMPARE_ENTRIES} entries  ${(compared.ms / 1000).toFixed(1)} s (${rate(summary.exchanges, compared.ms)})   ` +
      `max RSS ${mb(compared.maxRss)} for ${mb(statSync(primary).size + statSync(candidate).size)} of corpora, ` +
      `${summary.different} different (${PLANTED} planted), exit ${compared.code}`,
  );
  report([
    {
      bench: 'harness',
      name: `harness replay of ${replayed.exchanges} legacy requests against the port (req/s)`,
      value: (replayed.exchanges * 1000) / replay.ms,
      unit: 'req/s',
      reference: 'raw fetch loop, same requests',
      referenceValue: (requests.length * 1000) / rawMs,
      ratio: (replayed.exchanges * 1000) / replay.ms / ((requests.length * 1000) / rawMs),
      target: 'score 0',
      met: replayed.score === 0,
      range: `score ${replayed.score}, max RSS ${mb(replay.maxRss)}`,
    },
    {
      bench: 'harness',
      name: `harness compare, 2 x ${COMPARE_ENTRIES} entries (entries/s)`,
      value: (summary.exchanges * 1000) / compared.ms,
      unit: '/s',
      range: `max RSS ${mb(compared.maxRss)}, ${summary.different} different of ${PLANTED} planted`,
    },
  ]);
} finally {
  await port.stop();
  rmSync(dir, { recursive: true, force: true });
}
