import { validationError } from '../core/http/api-error.ts';
import { addressesOf, isNeverReachable, isPublicAddress, type LookupFn, systemLookup } from '../core/ssrf-guard.ts';

/**
 * Where a legacy key's shadow requests may go (issue 25 N11): the webhook destination rules
 * (server/core/ssrf-guard.ts), for an upstream the service calls with the PMS's requests. The URL may not
 * carry credentials (userinfo); every address its host resolves to must be public, unless the operator says
 * the legacy service is private (`allow_private_upstream: true`, the usual case inside one network), which
 * admits private and loopback addresses but never link-local (cloud metadata), unspecified, multicast or
 * reserved ones. Checked when the URL is set, and again before every forward (UpstreamDestinations below), for
 * the key's own URL and for QC_LEGACY_UPSTREAM_URL alike; http and https both, since the legacy service often
 * has no TLS inside its network.
 */
export type UpstreamProblem = 'invalid_url' | 'userinfo' | 'unresolvable_host' | 'private_address' | 'link_local';

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
  const addresses = await addressesOf(parsed, lookup);
  if (typeof addresses === 'string') return addresses;
  if (addresses.some(isNeverReachable)) return 'link_local';
  if (!allowPrivate && !addresses.every(isPublicAddress)) return 'private_address';
  return undefined;
}

/** How long a forward-time verdict holds: a re-pointed name is caught within this, and DNS is not asked per request. */
export const UPSTREAM_VERDICT_TTL_MS = 30_000;
/** Bound on resolving the host before a forward: past it the destination counts as unresolvable (502). */
export const UPSTREAM_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * The forward-time check (issue 25 N11 re-check): a name accepted when it was set may later resolve to a blocked
 * address, and QC_LEGACY_UPSTREAM_URL was never checked. Each process keeps one verdict per URL and override for
 * UPSTREAM_VERDICT_TTL_MS, refused ones included; the lookup is bounded, and concurrent requests share it.
 */
export class UpstreamDestinations {
  readonly #verdicts = new Map<string, { at: number; problem: Promise<UpstreamProblem | undefined> }>();

  constructor(
    private readonly lookup: LookupFn = systemLookup,
    private readonly now: () => number = () => performance.now(),
    private readonly lookupTimeoutMs = UPSTREAM_LOOKUP_TIMEOUT_MS,
  ) {}

  problem(url: string, allowPrivate: boolean): Promise<UpstreamProblem | undefined> {
    const key = `${allowPrivate ? 'private' : 'public'} ${url}`;
    const at = this.now();
    const kept = this.#verdicts.get(key);
    if (kept && at - kept.at < UPSTREAM_VERDICT_TTL_MS) return kept.problem;
    if (this.#verdicts.size >= 1000) this.#verdicts.clear();
    const problem = upstreamProblem(url, allowPrivate, (host) => bounded(this.lookup(host), this.lookupTimeoutMs));
    this.#verdicts.set(key, { at, problem });
    return problem;
  }
}

function bounded<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** 422 `upstream_url: [customer.legacy_key.messages.<problem>]` when the URL may not be a legacy upstream. */
export async function checkUpstreamUrl(url: string, allowPrivate: boolean, lookup?: LookupFn): Promise<void> {
  const problem = await upstreamProblem(url, allowPrivate, lookup);
  if (problem) throw validationError({ upstream_url: [`customer.legacy_key.messages.${problem}`] });
}
