import type { HeaderList } from '../compare/exchange.ts';

/**
 * Headers that belong to one connection, not to the message (RFC 9110 7.6.1), plus the framing headers the HTTP
 * layer sets again itself. A proxy or a stand-in passes every other header on unchanged.
 */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'host',
]);

export function endToEndHeaders(headers: HeaderList): Headers {
  const out = new Headers();
  for (const [name, value] of headers) if (!CONNECTION_HEADERS.has(name.toLowerCase())) out.append(name, value);
  return out;
}

export function headerListOf(headers: Headers): HeaderList {
  return [...headers];
}

/** Statuses whose answers carry no body: the HTTP layer refuses one. */
export function bodyAllowed(status: number): boolean {
  return status !== 204 && status !== 205 && status !== 304;
}
