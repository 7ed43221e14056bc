import type { HeaderList } from '../../harness/compare/index.ts';
import { bodyAllowed, endToEndHeaders, headerListOf } from '../../harness/proxy/hop-by-hop.ts';
import { messageResponse } from '../../legacy/bytes.ts';
import { messages } from '../../legacy/messages.ts';
import { type RequestOrigin, upstreamRequestHeaders } from './upstream-headers.ts';

/** One legacy request as the PMS sent it: the bytes forwarded upstream and later replayed to the port. */
export interface LegacyRequestBytes {
  method: string;
  /** Path and query as sent (`/api/pms/v1/booking/getBookings?api_key=...`). */
  pathAndQuery: string;
  headers: HeaderList;
  body: Uint8Array | null;
}

/** The legacy service's answer, byte for byte; or why there was none. */
export type UpstreamAnswer =
  | { status: number; statusText: string; headers: HeaderList; body: Uint8Array }
  | { failure: 'unreachable' | 'timeout'; reason: string };

/**
 * Sends the request to the legacy service (method, path, query and body bytes unchanged; only the headers the
 * legacy service reads, plus our own `Forwarded`: ./upstream-headers.ts; no redirect followed, a compressed
 * answer left compressed) and reads its whole answer, bounded by `timeoutMs`.
 */
export async function askUpstream(
  base: string,
  request: LegacyRequestBytes,
  origin: RequestOrigin,
  timeoutMs: number,
): Promise<UpstreamAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const answer = await fetch(base.replace(/\/+$/, '') + request.pathAndQuery, {
      method: request.method,
      headers: upstreamRequestHeaders(request.headers, origin),
      body: request.body,
      redirect: 'manual',
      decompress: false,
      signal,
    } as RequestInit);
    const body = new Uint8Array(await answer.arrayBuffer());
    return { status: answer.status, statusText: answer.statusText, headers: headerListOf(answer.headers), body };
  } catch (error) {
    if (signal.aborted) return { failure: 'timeout', reason: `no answer within ${timeoutMs} ms` };
    return { failure: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The PMS's answer in shadow mode: the upstream's, unchanged (status, end-to-end headers, body bytes). With no
 * answer the PMS gets what a legacy service behind its gateway gives when it is down: 502 (refused, reset, no
 * upstream configured) or 504 (too slow), the body in the legacy's unhandled-failure form (the reason is logged, never sent: it names internal hosts). Never the port's
 * answer: the legacy service is the system of record, and a write it did not take must not look taken.
 */
export function pmsAnswer(upstream: UpstreamAnswer, timeoutMs: number): Response {
  if ('failure' in upstream) {
    return upstream.failure === 'timeout'
      ? messageResponse(504, messages.cutover.upstreamTimeout(timeoutMs))
      : messageResponse(502, messages.cutover.upstreamUnreachable);
  }
  return new Response(bodyAllowed(upstream.status) ? upstream.body : null, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: endToEndHeaders(upstream.headers),
  });
}
