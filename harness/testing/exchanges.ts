import type { Exchange } from '../compare/exchange.ts';

/** A legacy-looking exchange for comparison tests: JSON answer, given body text, status 200 unless told. */
export function jsonExchange(
  url: string,
  body: string,
  overrides: Partial<Omit<Exchange, 'responseBody'>> = {},
): Exchange {
  return {
    method: 'GET',
    url,
    requestHeaders: [],
    requestBody: null,
    status: 200,
    responseHeaders: [['content-type', 'application/json']],
    responseBody: new TextEncoder().encode(body),
    ...overrides,
  };
}
