import { bodyAllowed, headerListOf } from '../../harness/proxy/hop-by-hop.ts';
import { DRY_RUN_HEADER } from '../../harness/replay/dry-run.ts';
import { findLegacyKey, type LegacyKeyRecord } from '../../legacy/auth.ts';
import { messageResponse } from '../../legacy/bytes.ts';
import type { LegacyCutover, PortAnswer } from '../../legacy/facade.ts';
import { messages } from '../../legacy/messages.ts';
import { legacyEndpointName } from '../../legacy/methods.ts';
import { parseQuery } from '../../legacy/php-input.ts';
import { legacyRoute } from '../../legacy/port-answer.ts';
import { utcDay } from '../core/days.ts';
import type { Deps } from '../core/deps.ts';
import { requestState } from '../core/http/request-state.ts';
import { EndpointUsage } from './endpoint-usage.ts';
import { askUpstream, type LegacyRequestBytes, pmsAnswer, type UpstreamAnswer } from './forward-upstream.ts';
import { portDryRun, WRITE_FREE_ENDPOINTS } from './port-dry-run.ts';
import { credentialReadiness, holdingBack } from './readiness.ts';
import type { ShadowComparisons } from './shadow-comparisons.ts';
import { affects, type SunsetCache, type SunsetSetting, sunsetHeaders } from './sunset.ts';
import type { RequestOrigin } from './upstream-headers.ts';
import { UpstreamDestinations } from './upstream-url.ts';

/** How long a process trusts its answer to "may the reached sunset switch endpoints off" (a daily matter). */
const GATE_TTL_MS = 60_000;

/**
 * Who answers each legacy request (spec 9.4), read on every request from the key's row (one query, the same that
 * authenticates it, so a flip by any process applies to the next call): a key in `shadow` gets the legacy
 * service's answer, forwarded byte for byte, and the port is compared with it off the request path; a key in
 * `live` (and a request without a known key) gets the port's answer and the upstream is never called. Once a
 * sunset is set, every affected answer carries `Sunset` and `Link` and nothing else changes; once its date is
 * reached, the affected endpoints answer 410 only if no credential using them is short of the 90-day rule.
 */
export class CutoverRouter implements LegacyCutover {
  readonly #usage: EndpointUsage;
  readonly #destinations = new UpstreamDestinations();
  #gate: { key: string; at: number; open: Promise<boolean> } | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly comparisons: ShadowComparisons,
    private readonly sunset: SunsetCache,
  ) {
    this.#usage = new EndpointUsage(deps.db, deps.log);
  }

  async answer(request: Request, port: PortAnswer): Promise<Response> {
    const url = new URL(request.url);
    const { epClass, epMethod } = legacyRoute(url);
    const endpoint = legacyEndpointName(epClass, epMethod);
    const [record, sunset] = await Promise.all([
      findLegacyKey(this.deps.db, parseQuery(url.search).api_key),
      this.sunset.current(),
    ]);
    const now = this.deps.clock.now();
    const today = utcDay(now);
    const dryRun = request.headers.get(DRY_RUN_HEADER) === '1';
    // A dry run leaves nothing behind, not even the endpoint's use by the key (the sunset's evidence).
    if (record && endpoint && !dryRun) this.#usage.note(record.caller.keyId, endpoint, today);
    const affected = sunset && affects(sunset, endpoint) ? sunset : undefined;
    const guide = this.#guideUrl();
    let response: Response;
    if (affected && today >= affected.date && (await this.#switchedOff(affected, today))) {
      response = messageResponse(410, messages.cutover.retired(affected.date, guide));
    } else if (dryRun) {
      // Without a known key, or for a method that writes nothing, the port's own answer is the dry run's: no
      // actor turn to wait for, so a replay's reads run in parallel.
      response =
        record && !(endpoint && WRITE_FREE_ENDPOINTS.has(endpoint))
          ? await this.#dryRun(request, url, record)
          : await port({ record });
      response.headers.set(DRY_RUN_HEADER, '1');
    } else if (record?.cutover.mode === 'shadow') {
      response = await this.#shadow(request, url, record, now);
    } else {
      response = await port({ record });
    }
    if (affected)
      for (const [name, value] of Object.entries(sunsetHeaders(affected, guide))) response.headers.set(name, value);
    return response;
  }

  /**
   * A request asking for a dry run (the compatibility harness's replays): the port answers it, whatever the key's
   * mode (a shadow key's request is never forwarded: that would write to the legacy service), in the property's
   * actor turn with every write rolled back, and says so with the same header.
   */
  async #dryRun(request: Request, url: URL, record: LegacyKeyRecord): Promise<Response> {
    const answer = await portDryRun(this.deps, record.caller.propertyId, await requestBytes(request, url));
    return new Response(bodyAllowed(answer.status) ? answer.responseBody : null, {
      status: answer.status,
      headers: new Headers(answer.responseHeaders.map(([name, value]) => [name, value])),
    });
  }

  async #shadow(request: Request, url: URL, record: LegacyKeyRecord, at: Date): Promise<Response> {
    const { upstreamUrl, upstreamAllowPrivate, upstreamTimeoutMs } = this.deps.config.legacyCutover;
    const bytes = await requestBytes(request, url);
    const own = record.cutover.upstreamUrl;
    const base = own ?? upstreamUrl;
    const allowPrivate = own ? record.cutover.upstreamAllowPrivate : upstreamAllowPrivate;
    const origin = originOf(request, url);
    const forward = base
      ? async (again: LegacyRequestBytes): Promise<UpstreamAnswer> => {
          // Checked before every forward, not only when the URL was set (a name may be re-pointed since).
          const problem = await this.#destinations.problem(base, allowPrivate);
          if (problem) return { failure: 'unreachable', reason: `destination refused: ${problem}` };
          return askUpstream(base, again, origin, upstreamTimeoutMs);
        }
      : undefined;
    const upstream: UpstreamAnswer = forward
      ? await forward(bytes)
      : { failure: 'unreachable', reason: 'no legacy upstream configured (QC_LEGACY_UPSTREAM_URL)' };
    if ('failure' in upstream) {
      this.deps.log.warn('legacy upstream gave no answer', {
        key_id: record.caller.keyId,
        // Its origin only: where it was asked, not what (the request may carry the PMS's api_key).
        upstream: base ? new URL(base).origin : undefined,
        failure: upstream.failure,
        reason: upstream.reason,
      });
    }
    this.comparisons.offer({
      keyId: record.caller.keyId,
      propertyId: record.caller.propertyId,
      at,
      request: bytes,
      upstream,
      askUpstream: forward,
    });
    return pmsAnswer(upstream, upstreamTimeoutMs);
  }

  /** True when no active credential that used the affected endpoints lacks the 90-day zero streak. */
  #switchedOff(sunset: SunsetSetting, today: string): Promise<boolean> {
    // The sunset is re-read every few seconds as a new object: the answer holds for the same setting and day.
    const key = `${today} ${sunset.date} ${sunset.endpoints?.join(',') ?? '*'} ${sunset.setAt.toISOString()}`;
    const gate = this.#gate;
    if (gate?.key === key && performance.now() - gate.at < GATE_TTL_MS) return gate.open;
    const open = credentialReadiness(this.deps.db, today).then((all) => holdingBack(all, sunset).length === 0);
    this.#gate = { key, at: performance.now(), open };
    open.catch(() => {
      this.#gate = undefined;
    });
    return open;
  }

  /**
   * The migration guide the operator publishes (QC_LEGACY_MIGRATION_GUIDE_URL), or none. The default was the
   * modern API reference, which says nothing about moving a PMS off a legacy method: a `rel="sunset"` link
   * (optional in RFC 8594) that leads nowhere useful teaches vendors to ignore it, so without a guide only
   * `Sunset` is sent.
   */
  #guideUrl(): string | undefined {
    return this.deps.config.legacyCutover.migrationGuideUrl;
  }
}

/** The peer as the legacy facade learned it from the socket, never from a header the client sent. */
function originOf(request: Request, url: URL): RequestOrigin {
  return { address: requestState(request).address, proto: url.protocol.replace(':', ''), host: url.host };
}

/** The request's exact bytes, read once. */
async function requestBytes(request: Request, url: URL): Promise<LegacyRequestBytes> {
  return {
    method: request.method,
    pathAndQuery: url.pathname + url.search,
    headers: headerListOf(request.headers),
    body: request.body ? new Uint8Array(await request.arrayBuffer()) : null,
  };
}
