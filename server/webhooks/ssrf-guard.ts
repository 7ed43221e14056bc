import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhook destinations. The host is resolved and every address it
 * resolves to must be publicly routable: loopback, private, link-local, unique-local, CGNAT, multicast,
 * documentation and reserved ranges are refused (IPv4-mapped and NAT64 IPv6 forms included). Checked when
 * a subscription is created or changed and again before every attempt, so a DNS change cannot turn an
 * accepted destination into an internal one later. `allowPrivate` (QC_WEBHOOK_ALLOW_PRIVATE=1) lifts the
 * address check and permits plain http, for local development and tests only.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata endpoints live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export type LookupFn = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

export type DestinationProblem = 'invalid_url' | 'https_required' | 'unresolvable_host' | 'private_address';

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  const embedded = embeddedIpv4(lower);
  if (embedded) return isPublicAddress(embedded);
  return !blocked.check(lower, 'ipv6');
}

// IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible and NAT64 (64:ff9b::a.b.c.d) forms reach an IPv4 host.
function embeddedIpv4(address: string): string | undefined {
  const dotted = address.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) return dotted[1];
  const hex = address.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (!hex?.[1] || !hex[2]) return undefined;
  const hi = Number.parseInt(hex[1], 16);
  const lo = Number.parseInt(hex[2], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Why `url` may not receive webhooks, or undefined when it may. */
export async function destinationProblem(
  url: string,
  allowPrivate: boolean,
  lookup: LookupFn = systemLookup,
): Promise<DestinationProblem | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) return 'https_required';
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return 'invalid_url';
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host)).map((a) => a.address);
    } catch {
      return 'unresolvable_host';
    }
  }
  if (addresses.length === 0) return 'unresolvable_host';
  return addresses.every(isPublicAddress) ? undefined : 'private_address';
}
