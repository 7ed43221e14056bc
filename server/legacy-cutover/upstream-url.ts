import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { validationError } from '../core/http/api-error.ts';
import { isNeverReachable, isPublicAddress, type LookupFn } from '../core/ssrf-guard.ts';

/**
 * Where a legacy key's shadow requests may go (issue 25 N11): the webhook destination rules
 * (server/core/ssrf-guard.ts), for an upstream the service calls with the PMS's requests. The URL may not
 * carry credentials (userinfo); every address its host resolves to must be public, unless the operator says
 * the legacy service is private (`allow_private_upstream: true`, the usual case inside one network), which
 * admits private and loopback addresses but never link-local (cloud metadata), unspecified, multicast or
 * reserved ones. Checked when the URL is set; http and https both, since the legacy service often has no TLS
 * inside its network.
 */
export type UpstreamProblem = 'invalid_url' | 'userinfo' | 'unresolvable_host' | 'private_address' | 'link_local';

const systemLookup: LookupFn = (host) => dnsLookup(host, { all: true, verbatim: true });

export async function upstreamProblem(
  url: string,
  allowPrivate: boolean,
  lookup: LookupFn = systemLookup,
): Promise<UpstreamProblem | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'invalid_url';
  if (parsed.username || parsed.password) return 'userinfo';
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
  if (addresses.some(isNeverReachable)) return 'link_local';
  if (!allowPrivate && !addresses.every(isPublicAddress)) return 'private_address';
  return undefined;
}

/** 422 `upstream_url: [customer.legacy_key.messages.<problem>]` when the URL may not be a legacy upstream. */
export async function checkUpstreamUrl(url: string, allowPrivate: boolean, lookup?: LookupFn): Promise<void> {
  const problem = await upstreamProblem(url, allowPrivate, lookup);
  if (problem) throw validationError({ upstream_url: [`customer.legacy_key.messages.${problem}`] });
}
