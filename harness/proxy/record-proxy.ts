import { pathAndQueryOf } from '../compare/exchange.ts';
import type { CorpusWriter } from '../corpus/corpus-writer.ts';
import { bodyAllowed, endToEndHeaders, headerListOf } from './hop-by-hop.ts';
import type { Redaction } from './redaction.ts';

export interface RecordProxyOptions {
  upstream: string;
  writer: CorpusWriter;
  redaction: Redaction;
  port: number;
  hostname: string;
  /** Called after each exchange is written (the CLI prints a count). */
  onRecorded?: (count: number) => void;
}

/**
 * A recording reverse proxy: each request goes to the upstream unchanged (method, path, query, end-to-end
 * headers, body bytes) and the upstream's answer comes back unchanged (status, end-to-end headers, body bytes:
 * a compressed answer stays compressed). Each exchange is appended to the corpus once it completes, redacted
 * first when asked; the client gets the unredacted answer.
 */
export function startRecordProxy(options: RecordProxyOptions) {
  const upstream = options.upstream.replace(/\/+$/, '');
  let recorded = 0;
  return Bun.serve({
    port: options.port,
    hostname: options.hostname,
    async fetch(request) {
      const startedDateTime = new Date().toISOString();
      const started = performance.now();
      const pathAndQuery = pathAndQueryOf(request.url);
      const requestBody = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
      const url = upstream + pathAndQuery;
      let answer: Response;
      try {
        answer = await fetch(url, {
          method: request.method,
          headers: endToEndHeaders(headerListOf(request.headers)),
          body: requestBody,
          redirect: 'manual',
          decompress: false,
        } as RequestInit);
      } catch (err) {
        return new Response(`harness record: upstream ${upstream} did not answer: ${(err as Error).message}\n`, {
          status: 502,
        });
      }
      const responseBody = new Uint8Array(await answer.arrayBuffer());
      const exchange = {
        method: request.method,
        url,
        requestHeaders: headerListOf(request.headers),
        requestBody,
        status: answer.status,
        responseHeaders: headerListOf(answer.headers),
        responseBody,
      };
      await options.writer.append(options.redaction.apply(exchange), {
        startedDateTime,
        time: Math.round((performance.now() - started) * 1000) / 1000,
      });
      options.onRecorded?.(++recorded);
      return new Response(bodyAllowed(answer.status) ? responseBody : null, {
        status: answer.status,
        statusText: answer.statusText,
        headers: endToEndHeaders(exchange.responseHeaders),
      });
    },
  });
}
