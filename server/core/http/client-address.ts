import { BlockList, isIP } from 'node:net';

/**
 * The client's address, the one every per-address rule uses (the token endpoint's wrong-secret budget, the
 * unmatched and public buckets, incident bounds, the legacy cutover's own `Forwarded`). Behind a balancer the
 * socket peer is the balancer, for every stranger alike; so only when the peer is a proxy the operator trusts
 * (QC_TRUSTED_PROXIES) is the address read from the forwarding header that proxy writes (QC_TRUSTED_PROXY_HEADER):
 * the right-most hop that is not itself a trusted proxy, since everything left of it was written by the client.
 * A direct client's forwarding headers are never read: anyone can send them.
 */
export interface TrustedProxies {
  /** The addresses and CIDRs as configured (empty: no proxy is trusted, the socket peer is the client). */
  readonly entries: readonly string[];
  /** The header the trusted proxies write: `x-forwarded-for` (HAProxy `option forwardfor`, nginx) or `forwarded`. */
  readonly header: ForwardingHeader;
  trusts(address: string): boolean;
}

export type ForwardingHeader = 'x-forwarded-for' | 'forwarded';

/** The peer of a request's connection, as Elysia hands the server to a hook (null: no socket, `app.handle`). */
export type PeerSource = { requestIP(request: Request): { address: string } | null } | null | undefined;

/** Parses `10.0.0.0/8, 127.0.0.1 ::1` (commas or spaces); the error names the first entry that is not one. */
export function parseTrustedProxies(
  list: string,
  header: ForwardingHeader,
): { proxies: TrustedProxies } | { error: string } {
  const entries = list.split(/[\s,]+/).filter(Boolean);
  const blocks = new BlockList();
  for (const entry of entries) {
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    if (!family || extra !== undefined || prefix < 0 || prefix > max)
      return { error: `not an address or CIDR: ${entry}` };
    blocks.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    proxies: {
      entries,
      header,
      trusts(candidate) {
        const family = isIP(candidate);
        if (family === 4) return blocks.check(candidate, 'ipv4');
        if (family !== 6) return false;
        // A dual-stack listener reports an IPv4 peer as ::ffff:a.b.c.d.
        const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(candidate)?.[1];
        return mapped ? blocks.check(mapped, 'ipv4') : blocks.check(candidate, 'ipv6');
      },
    },
  };
}

/**
 * The client's address: the socket peer, or, when the peer is a trusted proxy, the right-most untrusted hop of
 * the proxy's forwarding header. Every hop trusted: the left-most. A hop that is not an address (`unknown`, an
 * obfuscated name, garbage) ends the walk at the trusted proxy that reported it. Undefined without a socket.
 */
export function clientAddress(request: Request, server: PeerSource, proxies: TrustedProxies): string | undefined {
  const peer = server?.requestIP(request)?.address;
  if (!peer || proxies.entries.length === 0 || !proxies.trusts(peer)) return peer;
  const value = request.headers.get(proxies.header);
  if (!value) return peer;
  const hops = proxies.header === 'forwarded' ? forwardedFor(value) : value.split(',').map(hopAddress);
  let nearest = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (!hop) return nearest;
    if (!proxies.trusts(hop)) return hop;
    nearest = hop;
  }
  return nearest;
}

/** The `for=` node of each RFC 7239 element (undefined where it is missing or not an address). */
function forwardedFor(value: string): (string | undefined)[] {
  return value.split(',').map((element) => {
    for (const pair of element.split(';')) {
      const [name, ...rest] = pair.split('=');
      if (name?.trim().toLowerCase() === 'for') return hopAddress(rest.join('=').trim().replace(/^"|"$/g, ''));
    }
    return undefined;
  });
}

/** `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]` or `[::1]:5678` as a bare address; undefined for anything else. */
function hopAddress(text: string): string | undefined {
  const hop = text.trim();
  if (isIP(hop)) return hop;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop)?.[1];
  if (bracketed) return isIP(bracketed) === 6 ? bracketed : undefined;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop)?.[1];
  return v4 && isIP(v4) ? v4 : undefined;
}
