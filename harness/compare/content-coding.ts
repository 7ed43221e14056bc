import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, zstdDecompressSync } from 'node:zlib';
import type { Exchange } from './exchange.ts';
import { headerValue } from './exchange.ts';

/** A body decoded past this is not decoded (a corpus or an upstream is not trusted to be small once inflated). */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

const options = { maxOutputLength: MAX_DECODED_BYTES };

const decoders: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  identity: (bytes) => bytes,
  gzip: (bytes) => gunzipSync(bytes, options),
  'x-gzip': (bytes) => gunzipSync(bytes, options),
  // RFC 9110 `deflate` is zlib-wrapped; some servers send it raw.
  deflate: (bytes) => {
    try {
      return inflateSync(bytes, options);
    } catch {
      return inflateRawSync(bytes, options);
    }
  },
  br: (bytes) => brotliDecompressSync(bytes, options),
  zstd: (bytes) => zstdDecompressSync(bytes, options),
};

/**
 * The answer with its body as the client reads it: decoded through its `Content-Encoding` (the codings in the
 * reverse of the order applied). The legacy service behind its web server may compress what a PMS accepts
 * (the PMS's `Accept-Encoding` reaches it) while the port never does; an HTTP client decodes either, so the
 * comparison is of the decoded bytes, and byte for byte there. A coding not known, or a body that does not
 * decode, leaves the bytes as sent (then compared as they are). The headers are left as they were.
 */
export function decodedAnswer<T extends Pick<Exchange, 'responseHeaders' | 'responseBody'>>(answer: T): T {
  const decoded = decode(answer);
  return decoded instanceof Uint8Array && decoded !== answer.responseBody
    ? { ...answer, responseBody: new Uint8Array(decoded) }
    : answer;
}

/**
 * Whether the body is not in the codings its `Content-Encoding` names, all of them known: a HAR exported by a
 * browser or mitmproxy holds the body decoded (HAR 1.2: `content.text` is the decoded text) beside the header the
 * server sent.
 */
export function alreadyDecoded(answer: Pick<Exchange, 'responseHeaders' | 'responseBody'>): boolean {
  return decode(answer) === 'undecodable';
}

function decode(answer: Pick<Exchange, 'responseHeaders' | 'responseBody'>): Uint8Array | 'unknown' | 'undecodable' {
  const header = headerValue(answer.responseHeaders, 'content-encoding');
  if (!header) return answer.responseBody;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter(Boolean)
    .reverse();
  const steps = codings.map((coding) => decoders[coding]);
  if (steps.some((step) => !step)) return 'unknown';
  let body = answer.responseBody;
  try {
    for (const step of steps) body = (step as (bytes: Uint8Array) => Uint8Array)(body);
  } catch {
    return 'undecodable';
  }
  return body;
}
