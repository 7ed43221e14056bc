/**
 * `npm run bench:harness`: the compatibility harness at the size the migration team runs it.
 *
 * 1. A real port (`bun server/main.ts` on PostgreSQL from DATABASE_URL, Redis from REDIS_URL) with a demo
 *    customer; BENCH_REQUESTS (default 20000) legacy calls of a PMS session (reads and absolute writes, replayable
 *    against the same state) recorded through `harness record` into a .jsonl corpus.
 * 2. Reference: a raw fetch loop sending the same requests at the same concurrency, no comparison, twice: asking
 *    for dry runs (X-Qc-Dry-Run, what a default replay costs the port) and not.
 * 3. `harness replay` of the corpus against the port, as a separate process (as users run it): requests replayed
 *    and compared per second, its peak memory (max RSS), and its score (must be 0), as a dry run (the default)
 *    and with --allow-writes. Then the same replay against `harness serve` of the corpus, which has no database
 *    behind it: the harness's own ceiling.
 * 4. `harness compare` of two 100k-entry .jsonl corpora (BENCH_COMPARE_ENTRIES) with planted differences of three
 *    classes (BENCH_PLANTED, default 5000) and --report: time, peak memory against the corpora's size on disk
 *    (memory stays bounded: both are streamed), and the report's size.
 * 5. `harness replay` of the 100k-entry corpus against `harness serve` of it: the replay's peak memory against
 *    the corpus size (the replay streams the corpus; the stand-in holds it, in its own process).
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
const PLANTED = Number(process.env.BENCH_PLANTED ?? 5000);

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

/**
 * The CLI as its own process, its peak memory read by GNU time (`%M`, KB): the child's own maximum resident set,
 * not the largest of every child this process has waited for.
 */
async function harnessProcess(args: string[]): Promise<{ ms: number; maxRss: number; code: number; stdout: string }> {
  const started = performance.now();
  const proc = Bun.spawn(['/usr/bin/time', '-f', '%M', process.execPath, 'harness/cli.ts', ...args], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const code = await proc.exited;
  const ms = performance.now() - started;
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('Command exited with non-zero status'));
  const kb = Number(lines.pop());
  if (lines.length) process.stderr.write(`${lines.join('\n')}\n`);
  return { ms, maxRss: kb * 1024, code, stdout };
}

/**
 * One planted difference, of one of three classes by turn: status; value (a quantity, or the legacy message);
 * representation (a space). Never an id: ids are mapped, not compared.
 */
function plant(exchange: Exchange, n: number): Exchange {
  const body = new TextDecoder().decode(exchange.responseBody);
  const with_ = (text: string) => ({ ...exchange, responseBody: new TextEncoder().encode(text) });
  const kind = n % 3;
  if (kind === 1 && body.includes('"qty":')) return with_(body.replace('"qty":', '"qty":9'));
  if (kind === 1 && body.includes('"message":"')) return with_(body.replace('"message":"', '"message":"X'));
  if (kind === 2 && body.startsWith('{')) return with_(body.replace('{', '{ '));
  return { ...exchange, status: exchange.status + 1 };
}

try {
  const demo = await port.demo();
  await settle(port.url, demo);
  const calls = replayableCalls(demo);
  const corpus = join(dir, 'legacy.jsonl');

  console.log(`harness bench: port ${port.url} on PostgreSQL, ${REQUESTS} legacy requests, concurrency ${CONCURRENCY}`);
  const proxy = await startHarness(['record', '--upstream', port.url, '--out', corpus]);
  const started = performance.now();
  await pool(REQUESTS, CONCURRENCY, async (i) => {
    await (await send(proxy.url, demo.api_key, calls[i % calls.length] as (typeof calls)[number])).arrayBuffer();
  });
  const recordMs = performance.now() - started;
  await proxy.stop();
  console.log(
    `  record through the proxy        ${rate(REQUESTS, recordMs).padStart(8)}   (${mb(statSync(corpus).size)} corpus)`,
  );

  // References: the same requests, raw, from this process, asking for dry runs and not.
  const requests: Array<Pick<Exchange, 'method' | 'url' | 'requestBody'>> = [];
  for await (const e of readCorpus(corpus)) requests.push({ method: e.method, url: e.url, requestBody: e.requestBody });
  const rawLoop = async (headers: Record<string, string>) => {
    const at = performance.now();
    await pool(requests.length, CONCURRENCY, async (i) => {
      const r = requests[i] as (typeof requests)[number];
      const answer = await fetch(port.url + pathAndQueryOf(r.url), { method: r.method, body: r.requestBody, headers });
      await answer.arrayBuffer();
    });
    return performance.now() - at;
  };
  const rawDryMs = await rawLoop({ 'x-qc-dry-run': '1' });
  console.log(`  reference: raw loop, dry runs   ${rate(requests.length, rawDryMs).padStart(8)}`);
  const rawMs = await rawLoop({});
  console.log(`  reference: raw loop, writes     ${rate(requests.length, rawMs).padStart(8)}`);

  const replayRun = async (extra: string[]) => {
    const json = join(dir, 'replay.json');
    const run = await harnessProcess([
      'replay',
      corpus,
      '--target',
      port.url,
      '--concurrency',
      String(CONCURRENCY),
      '--json',
      json,
      ...extra,
    ]);
    return { ...run, summary: (await Bun.file(json).json()) as RunSummary };
  };
  const replay = await replayRun([]);
  const replayed = replay.summary;
  console.log(
    `  harness replay, dry runs        ${rate(replayed.exchanges, replay.ms).padStart(8)}   max RSS ${mb(replay.maxRss)}, ` +
      `score ${replayed.score} (${replayed.identical} identical of ${replayed.exchanges}), exit ${replay.code}`,
  );
  const writing = await replayRun(['--allow-writes']);
  console.log(
    `  harness replay, --allow-writes  ${rate(writing.summary.exchanges, writing.ms).padStart(8)}   max RSS ${mb(writing.maxRss)}, ` +
      `score ${writing.summary.score}, exit ${writing.code}`,
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
      await b.append(written % every === every - 1 ? plant(exchange, written) : exchange);
      written++;
    }
  }
  await a.close();
  await b.close();
  const compareJson = join(dir, 'compare.json');
  const compareHtml = join(dir, 'compare.html');
  const compared = await harnessProcess([
    'compare',
    primary,
    candidate,
    '--json',
    compareJson,
    '--report',
    compareHtml,
  ]);
  const summary = (await Bun.file(compareJson).json()) as RunSummary;
  console.log(
    `  harness compare, 2 x ${COMPARE_ENTRIES} entries  ${(compared.ms / 1000).toFixed(1)} s (${rate(summary.exchanges, compared.ms)})   ` +
      `max RSS ${mb(compared.maxRss)} for ${mb(statSync(primary).size + statSync(candidate).size)} of corpora, ` +
      `${summary.different} different (${PLANTED} planted: ${JSON.stringify(summary.classes)}), report ${mb(statSync(compareHtml).size)}, exit ${compared.code}`,
  );

  // The 100k corpus replayed against a stand-in serving it: the replay streams it.
  const big = await startHarness(['serve', primary]);
  const bigJson = join(dir, 'big.json');
  const bigRun = await harnessProcess([
    'replay',
    primary,
    '--target',
    big.url,
    '--concurrency',
    String(CONCURRENCY),
    '--json',
    bigJson,
  ]);
  await big.stop();
  const bigSummary = (await Bun.file(bigJson).json()) as RunSummary;
  console.log(
    `  harness replay of ${COMPARE_ENTRIES} vs serve  ${rate(bigSummary.exchanges, bigRun.ms).padStart(8)}   max RSS ${mb(bigRun.maxRss)} ` +
      `for a ${mb(statSync(primary).size)} corpus (the replay's own process), score ${bigSummary.score}, exit ${bigRun.code}`,
  );
  report([
    {
      bench: 'harness',
      name: `harness replay (dry runs) of ${replayed.exchanges} legacy requests, port (req/s)`,
      value: (replayed.exchanges * 1000) / replay.ms,
      unit: 'req/s',
      reference: 'raw loop asking for dry runs',
      referenceValue: (requests.length * 1000) / rawDryMs,
      ratio: (replayed.exchanges * 1000) / replay.ms / ((requests.length * 1000) / rawDryMs),
      target: 'score 0',
      met: replayed.score === 0,
      range: `score ${replayed.score}, max RSS ${mb(replay.maxRss)}`,
    },
    {
      bench: 'harness',
      name: `harness replay --allow-writes of ${writing.summary.exchanges} requests (req/s)`,
      value: (writing.summary.exchanges * 1000) / writing.ms,
      unit: 'req/s',
      reference: 'raw loop, writes',
      referenceValue: (requests.length * 1000) / rawMs,
      ratio: (writing.summary.exchanges * 1000) / writing.ms / ((requests.length * 1000) / rawMs),
      target: 'score 0',
      met: writing.summary.score === 0,
    },
    {
      bench: 'harness',
      name: `harness compare, 2 x ${COMPARE_ENTRIES} entries, ${PLANTED} planted, --report (entries/s)`,
      value: (summary.exchanges * 1000) / compared.ms,
      unit: '/s',
      target: 'every planted one found',
      met: summary.different === PLANTED,
      range: `max RSS ${mb(compared.maxRss)}, report ${mb(statSync(compareHtml).size)}`,
    },
    {
      bench: 'harness',
      name: `harness replay of ${COMPARE_ENTRIES} entries vs serve: max RSS (MB)`,
      value: bigRun.maxRss / 2 ** 20,
      unit: 'MB',
      reference: 'corpus size on disk',
      referenceValue: statSync(primary).size / 2 ** 20,
      target: 'score 0',
      met: bigSummary.score === 0,
      range: `${rate(bigSummary.exchanges, bigRun.ms)}`,
    },
  ]);
} finally {
  await port.stop();
  rmSync(dir, { recursive: true, force: true });
}
