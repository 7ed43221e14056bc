import type { HeaderList } from '../../harness/compare/index.ts';

/**
 * The request headers the legacy PHP service reads (issue 25 N6): the body's type and encoding, what the PMS
 * accepts, and its User-Agent. The key travels in the query, so nothing else is needed; every other header a
 * client sends stays here: credentials for other hops (`Proxy-Authorization`, cookies), and above all forwarding
 * headers a client could spoof (`X-Forwarded-For`, `X-Real-IP`, `Forwarded`), which the legacy service or its
 * gateway would take for the truth.
 */
const FORWARDED_TO_LEGACY = new Set([
  'content-type',
  'content-encoding',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
]);

/** Who sent the request to us, as our own forwarding headers tell the legacy service. */
export interface RequestOrigin {
  /** The peer address of the connection; undefined when unknown (a request handed in without a socket). */
  address: string | undefined;
  /** `http` or `https`, as the request reached us. */
  proto: string;
  /** The Host the client asked for. */
  host: string;
}

/**
 * Headers for the upstream request: the allow-listed ones, minus any the client named in `Connection` (hop-by-hop
 * by its own declaration, RFC 9110 7.6.1), plus our own `Forwarded` (RFC 7239) and `X-Forwarded-For`/`-Proto`,
 * replacing whatever the client claimed.
 */
export function upstreamRequestHeaders(headers: HeaderList, origin: RequestOrigin): Headers {
  const hopByHop = new Set<string>();
  for (const [name, value] of headers)
    if (name.toLowerCase() === 'connection')
      for (const token of value.split(',')) hopByHop.add(token.trim().toLowerCase());
  const out = new Headers();
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (FORWARDED_TO_LEGACY.has(lower) && !hopByHop.has(lower)) out.append(name, value);
  }
  out.set('forwarded', `for=${forwardedNode(origin.address)};proto=${origin.proto};host=${quoted(origin.host)}`);
  if (origin.address) out.set('x-forwarded-for', origin.address);
  out.set('x-forwarded-proto', origin.proto);
  return out;
}

/** RFC 7239 node: an IPv6 address in brackets and quotes, an unknown peer as `unknown`. */
function forwardedNode(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.includes(':') ? `"[${address}]"` : address;
}

function quoted(value: string): string {
  return /^[A-Za-z0-9.\-_~!#$&'*+^`|]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`;
}
