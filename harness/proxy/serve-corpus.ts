import { createHash } from 'node:crypto';
import { alreadyDecoded } from '../compare/content-coding.ts';
import { type Exchange, pathAndQueryOf } from '../compare/exchange.ts';
import { DRY_RUN_HEADER } from '../replay/dry-run.ts';
import { bodyAllowed, endToEndHeaders } from './hop-by-hop.ts';

/**
 * The recorded answers of a corpus, by request: method, path, query string (as sent) and body bytes. The n-th
 * identical request gets the n-th recorded answer; once they are used up, the last one again (a PMS that polls
 * more often than the recording did keeps seeing the last state).
 */
export class RecordedAnswers {
  private readonly answers = new Map<string, Exchange[]>();
  private readonly served = new Map<string, number>();

  constructor(exchanges: Iterable<Exchange>) {
    for (const exchange of exchanges) {
      const key = requestKey(exchange.method, pathAndQueryOf(exchange.url), exchange.requestBody);
      const list = this.answers.get(key);
      if (list) list.push(exchange);
      else this.answers.set(key, [exchange]);
    }
  }

  next(method: string, pathAndQuery: string, body: Uint8Array | null): Exchange | undefined {
    const key = requestKey(method, pathAndQuery, body);
    const list = this.answers.get(key);
    if (!list) return undefined;
    const n = this.served.get(key) ?? 0;
    this.served.set(key, n + 1);
    return list[Math.min(n, list.length - 1)];
  }
}

function requestKey(method: string, pathAndQuery: string, body: Uint8Array | null): string {
  const digest = body && body.length > 0 ? createHash('sha256').update(body).digest('hex') : '-';
  return `${method.toUpperCase()} ${pathAndQuery} ${digest}`;
}

/**
 * Answers requests from recorded answers, byte for byte; a request never recorded gets 404 from the harness.
 * The stand-in writes nothing, so a request asking for a dry run (DRY_RUN_HEADER) is told it got one.
 */
export function startServeCorpus(answers: RecordedAnswers, options: { port: number; hostname: string }) {
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    async fetch(request) {
      const pathAndQuery = pathAndQueryOf(request.url);
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
      const recorded = answers.next(request.method, pathAndQuery, body);
      const dryRun = request.headers.get(DRY_RUN_HEADER) === '1';
      if (!recorded) {
        return new Response(`harness serve: no recorded answer for ${request.method} ${pathAndQuery}\n`, {
          status: 404,
          headers: {
            'Content-Type': 'text/plain; charset=utf-8',
            'X-Harness-Unmatched': '1',
            ...(dryRun ? { [DRY_RUN_HEADER]: '1' } : {}),
          },
        });
      }
      const headers = endToEndHeaders(recorded.responseHeaders);
      // A browser's or mitmproxy's HAR keeps the decoded body beside the server's Content-Encoding: served with
      // that header, no client could read it.
      if (alreadyDecoded(recorded)) headers.delete('content-encoding');
      if (dryRun) headers.set(DRY_RUN_HEADER, '1');
      return new Response(bodyAllowed(recorded.status) ? recorded.responseBody : null, {
        status: recorded.status,
        headers,
      });
    },
  });
}
