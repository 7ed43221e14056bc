/**
 * THE one reader of the Authorization header: a Bearer token for the partner API, the operator API and the
 * dashboard, HTTP Basic client authentication (RFC 6749 2.3.1) for the token endpoint and its rate limit.
 * Whatever the header holds, these return a value or undefined and never throw: a header that does not
 * parse is the same as no credentials, which each caller answers with its own 401.
 */

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

export interface BasicCredentials {
  id: string;
  secret: string;
}

/**
 * The client id and secret of `Authorization: Basic base64(urlencode(id):urlencode(secret))`, or undefined
 * when the header is not that: another scheme, no colon, a percent-encoding that does not decode
 * (`decodeURIComponent` throws URIError on `%zz` or a lone `%E0`), or a value no client can have.
 */
export function basicCredentials(header: string | null | undefined): BasicCredentials | undefined {
  const encoded = header?.match(/^Basic\s+(\S+)\s*$/i)?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const id = percentDecoded(decoded.slice(0, colon));
  const secret = percentDecoded(decoded.slice(colon + 1));
  if (id === undefined || secret === undefined || !canBeCredential(id) || !canBeCredential(secret)) return undefined;
  return { id, secret };
}

/**
 * Whether a client id or secret from a request can be looked up at all: PostgreSQL text cannot hold NUL
 * (binding one fails with SQLSTATE 22021, a 500), and no issued credential contains one.
 */
export function canBeCredential(value: string): boolean {
  return !value.includes('\u0000');
}

function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch (err) {
    if (err instanceof URIError) return undefined;
    throw err;
  }
}
