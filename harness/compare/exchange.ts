/**
 * One recorded HTTP exchange as the comparison sees it: the request that was sent and the answer that came back,
 * bodies as the exact bytes. The corpus readers (harness/corpus) turn HAR entries into these; the cutover code can
 * build them from live traffic the same way.
 */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

export interface Exchange {
  method: string;
  /** Absolute URL as recorded (`http://host/api/pms/v1/booking/getBookings?api_key=...`) or path and query. */
  url: string;
  requestHeaders: HeaderList;
  /** `null` when the request carried no body (a GET); an empty body is an empty array. */
  requestBody: Uint8Array | null;
  status: number;
  responseHeaders: HeaderList;
  responseBody: Uint8Array;
}

/** An endpoint is the method and the URL path, without the query string: `GET /api/pms/v1/booking/getBookings`. */
export interface Endpoint {
  method: string;
  path: string;
}

export function endpointOf(exchange: Pick<Exchange, 'method' | 'url'>): Endpoint {
  return { method: exchange.method.toUpperCase(), path: pathOf(exchange.url) };
}

export function endpointKey(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path}`;
}

/** The path of an absolute or origin-relative URL, without query or fragment, read from the string itself. */
export function pathOf(url: string): string {
  const start = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/** Path and query of a URL as recorded, bytes untouched (no re-encoding through URL/URLSearchParams). */
export function pathAndQueryOf(url: string): string {
  if (url.startsWith('/')) return url;
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? '/' : url.slice(slash);
}

/** All values of a header (names compare case-insensitively), joined as HTTP joins repeated fields. */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const values = headers.filter(([n]) => n.toLowerCase() === wanted).map(([, v]) => v);
  return values.length ? values.join(', ') : undefined;
}
