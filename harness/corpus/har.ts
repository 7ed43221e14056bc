import type { Exchange, HeaderList } from '../compare/exchange.ts';

/**
 * HTTP Archive 1.2 entries, the format recording proxies and browsers export (mitmproxy, Charles, ZAP, dev tools).
 * Only the fields the harness reads or writes are typed; others pass through untouched when read.
 * Bodies: `text` holds the exact bytes, as UTF-8 text when they are valid UTF-8, else base64 with
 * `encoding: "base64"` (HAR 1.2 defines that for `response.content`; the harness also writes and reads it on
 * `request.postData`, for binary request bodies).
 */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: HarHeader[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string; encoding?: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

export const CREATOR = { name: 'qc-compatibility-harness', version: '1' } as const;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8 = new TextEncoder();

/** Body bytes as HAR text: UTF-8 when the bytes are valid UTF-8 (they round-trip exactly), base64 otherwise. */
export function encodeBody(bytes: Uint8Array): { text: string; encoding?: 'base64' } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64'), encoding: 'base64' };
  }
}

export function decodeBody(text: string, encoding: string | undefined): Uint8Array {
  if (encoding === 'base64') return new Uint8Array(Buffer.from(text, 'base64'));
  if (encoding) throw new Error(`unknown body encoding ${JSON.stringify(encoding)}`);
  return utf8.encode(text);
}

export interface ExchangeTiming {
  startedDateTime?: string;
  time?: number;
}

export function toHarEntry(exchange: Exchange, timing: ExchangeTiming = {}): HarEntry {
  const requestType = headerOf(exchange.requestHeaders, 'content-type') ?? '';
  const responseType = headerOf(exchange.responseHeaders, 'content-type') ?? '';
  const entry: HarEntry = {
    startedDateTime: timing.startedDateTime ?? new Date().toISOString(),
    time: timing.time ?? 0,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      headers: harHeaders(exchange.requestHeaders),
      queryString: queryStringOf(exchange.url),
      cookies: [],
      headersSize: -1,
      bodySize: exchange.requestBody?.length ?? 0,
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: harHeaders(exchange.responseHeaders),
      cookies: [],
      content: { size: exchange.responseBody.length, mimeType: responseType, ...encodeBody(exchange.responseBody) },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: timing.time ?? 0, receive: 0 },
  };
  if (exchange.requestBody) entry.request.postData = { mimeType: requestType, ...encodeBody(exchange.requestBody) };
  return entry;
}

/** Reads one HAR entry; throws an Error naming the first missing or malformed field. */
export function fromHarEntry(value: unknown): Exchange {
  const entry = value as Partial<HarEntry> | null;
  if (typeof entry !== 'object' || entry === null) throw new Error('not an object');
  const request = entry.request;
  const response = entry.response;
  if (typeof request !== 'object' || request === null) throw new Error('request missing');
  if (typeof request.method !== 'string' || !request.method) throw new Error('request.method missing');
  if (typeof request.url !== 'string' || !request.url) throw new Error('request.url missing');
  if (typeof response !== 'object' || response === null) throw new Error('response missing');
  if (typeof response.status !== 'number') throw new Error('response.status missing');
  const content = response.content;
  if (typeof content !== 'object' || content === null) throw new Error('response.content missing');
  const postData = request.postData;
  return {
    method: request.method,
    url: request.url,
    requestHeaders: headerList(request.headers, 'request.headers'),
    requestBody: postData ? decodeField(postData.text ?? '', postData.encoding, 'request.postData') : null,
    status: response.status,
    responseHeaders: headerList(response.headers, 'response.headers'),
    responseBody: decodeField(content.text ?? '', content.encoding, 'response.content'),
  };
}

function decodeField(text: unknown, encoding: unknown, where: string): Uint8Array {
  if (typeof text !== 'string') throw new Error(`${where}.text is not a string`);
  if (encoding !== undefined && typeof encoding !== 'string') throw new Error(`${where}.encoding is not a string`);
  try {
    return decodeBody(text, encoding);
  } catch (err) {
    throw new Error(`${where}: ${(err as Error).message}`);
  }
}

function headerList(headers: unknown, where: string): HeaderList {
  if (headers === undefined) return [];
  if (!Array.isArray(headers)) throw new Error(`${where} is not an array`);
  return headers.map((header, i) => {
    if (typeof header?.name !== 'string' || typeof header?.value !== 'string') {
      throw new Error(`${where}[${i}] needs a string name and value`);
    }
    return [header.name, header.value] as const;
  });
}

function harHeaders(headers: HeaderList): HarHeader[] {
  return headers.map(([name, value]) => ({ name, value }));
}

function headerOf(headers: HeaderList, name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function queryStringOf(url: string): HarHeader[] {
  const query = url.split('#')[0]?.split('?').slice(1).join('?') ?? '';
  if (!query) return [];
  return [...new URLSearchParams(query)].map(([name, value]) => ({ name, value }));
}
