import { type CompareOptions, compareExchange } from '../compare/compare-exchange.ts';
import { endpointNoun } from '../compare/correspondence.ts';
import { type Exchange, headerValue, pathAndQueryOf, pathOf } from '../compare/exchange.ts';
import type { ExchangeOutcome } from '../compare/score.ts';
import { endToEndHeaders, headerListOf } from '../proxy/hop-by-hop.ts';
import { DRY_RUN_HEADER } from './dry-run.ts';
import { rewriteApiKey } from './key-map.ts';
import { rewriteBody, rewriteQuery } from './rewrite-request.ts';

export interface ReplayOptions {
  /** Base URL of the system under test: `http://127.0.0.1:8080`. */
  target: string;
  keyMap: ReadonlyMap<string, string>;
  /** Requests in flight at once. 1 (the default) keeps the recorded order strictly. */
  concurrency?: number;
  /** At most this many requests started per second. */
  rate?: number;
  /** Per request, in milliseconds. Default 30 s. */
  timeoutMs?: number;
  compare: CompareOptions;
  /** Ask the target for a dry run of every request (the default of `harness replay`): nothing it answers is kept. */
  dryRun?: boolean;
  onOutcome: (outcome: ExchangeOutcome) => void;
}

/**
 * Sends every recorded request to the target, in recorded order (requests start in that order; with
 * concurrency above 1 they may finish out of order), and compares each answer with the recorded one.
 * Answers the number of exchanges replayed.
 */
export async function replayCorpus(exchanges: AsyncIterable<Exchange>, options: ReplayOptions): Promise<number> {
  const target = options.target.replace(/\/+$/, '');
  const iterator = exchanges[Symbol.asyncIterator]();
  const interval = options.rate ? 1000 / options.rate : 0;
  const started = performance.now();
  let next = 0;
  // One reader at a time: the corpus stream is consumed strictly in order.
  let reading: Promise<unknown> = Promise.resolve();
  const take = (): Promise<{ index: number; exchange: Exchange } | undefined> => {
    const result = reading.then(async () => {
      const item = await iterator.next();
      return item.done ? undefined : { index: next++, exchange: item.value };
    });
    reading = result;
    return result;
  };

  const worker = async () => {
    for (;;) {
      const item = await take();
      if (!item) return;
      if (interval) {
        const due = started + item.index * interval - performance.now();
        if (due > 0) await Bun.sleep(due);
      }
      options.onOutcome(await replayOne(item.index, item.exchange, target, options));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return next;
}

async function replayOne(
  index: number,
  recorded: Exchange,
  target: string,
  options: ReplayOptions,
): Promise<ExchangeOutcome> {
  const correspondence = options.compare.correspondence;
  const noun = endpointNoun(pathOf(recorded.url));
  let pathAndQuery = rewriteApiKey(pathAndQueryOf(recorded.url), options.keyMap);
  let body = recorded.requestBody;
  if (correspondence) {
    pathAndQuery = rewriteQuery(pathAndQuery, correspondence, noun);
    body = rewriteBody(body, headerValue(recorded.requestHeaders, 'content-type'), correspondence, noun);
  }
  const url = target + pathAndQuery;
  const headers = endToEndHeaders(recorded.requestHeaders);
  if (options.dryRun) headers.set(DRY_RUN_HEADER, '1');
  try {
    const answer = await fetch(url, {
      method: recorded.method,
      headers,
      body,
      redirect: 'manual',
      decompress: false,
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    } as RequestInit);
    if (options.dryRun && answer.headers.get(DRY_RUN_HEADER) !== '1') {
      await answer.arrayBuffer();
      return {
        index,
        recorded,
        error: `${recorded.method} ${url}: answered without ${DRY_RUN_HEADER}: 1 (not a dry run)`,
      };
    }
    const replayed = {
      status: answer.status,
      responseHeaders: headerListOf(answer.headers),
      responseBody: new Uint8Array(await answer.arrayBuffer()),
    };
    return {
      index,
      recorded,
      replayed,
      comparison: compareExchange(recorded, replayed, { ...options.compare, index }),
      // What was sent when ids or dates were rewritten: the report shows it beside the recorded request.
      ...(pathAndQuery !== pathAndQueryOf(recorded.url) ? { sent: pathAndQuery } : {}),
    };
  } catch (err) {
    return { index, recorded, error: `${recorded.method} ${url}: ${(err as Error).message}` };
  }
}
