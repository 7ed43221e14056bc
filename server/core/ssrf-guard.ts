import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhook destinations. The host is resolved and every address it
 * resolves to must be publicly routable: loopback, private, link-local, unique-local, CGNAT, multicast,
 * documentation and reserved ranges are refused (IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms
 * included). Checked when
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
  ['2001::', 32], // Teredo: a tunnel to an IPv4 host we cannot check
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/**
 * Addresses no destination may have even where private ones are allowed (a legacy upstream with the operator's
 * override): link-local (cloud metadata endpoints), unspecified, multicast and reserved.
 */
const neverReachable = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  neverReachable.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  neverReachable.addSubnet(net, prefix, 'ipv6');
}

/** True for a link-local, unspecified, multicast or reserved address, in any IPv4 or IPv6 spelling. */
export function isNeverReachable(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return neverReachable.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  const embedded = embeddedIpv4(lower);
  if (embedded) return isNeverReachable(embedded);
  return neverReachable.check(lower, 'ipv6');
}

export type LookupFn = (host: string) => Promise<{ address: string; family: number }[]>;

/** The machine's resolver, every address of a name in the order it gives them. */
export const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

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

/**
 * The IPv4 host an IPv6 address reaches: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, which a URL
 * writes as [::7f00:1]), NAT64 (64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48, the IPv4 in the next 32 bits).
 * Read from the full eight groups, so every spelling of one address gives one answer.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const dotted = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  if (g[0] === 0x2002) return dotted(g[1] as number, g[2] as number);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  // ::a.b.c.d, but not :: and ::1 (their own entries in the block list).
  const compatible = zeros(0, 6) && ((g[6] as number) > 0 || (g[7] as number) > 1);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  return mapped || compatible || nat64 ? dotted(g[6] as number, g[7] as number) : undefined;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 counts as two). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const v4 = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const part = (s: string | undefined) => (s ? s.split(':').map((x) => Number.parseInt(x, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array(Math.max(0, fill)).fill(0), ...right];
  return groups.length === 8 && groups.every((x) => Number.isInteger(x) && x >= 0 && x <= 0xffff) ? groups : undefined;
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
  const addresses = await addressesOf(parsed, lookup);
  if (typeof addresses === 'string') return addresses;
  return addresses.every(isPublicAddress) ? undefined : 'private_address';
}

/**
 * The addresses a URL's host stands for: the literal address, or every address DNS answers for the name (none
 * is unresolvable). The one resolution step of the destination rules, for webhooks and legacy upstreams alike.
 */
export async function addressesOf(
  parsed: URL,
  lookup: LookupFn = systemLookup,
): Promise<string[] | 'invalid_url' | 'unresolvable_host'> {
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return 'invalid_url';
  if (isIP(host)) return [host];
  try {
    const addresses = (await lookup(host)).map((a) => a.address);
    return addresses.length ? addresses : 'unresolvable_host';
  } catch {
    return 'unresolvable_host';
  }
}
