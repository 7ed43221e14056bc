import { Elysia } from 'elysia';
import type { Deps } from '../server/core/deps.ts';
import { clientAddress, type PeerSource } from '../server/core/http/client-address.ts';
import { requestState } from '../server/core/http/request-state.ts';
import { legacyRequestSeconds, legacyRequests } from '../server/core/metrics.ts';
import type { LegacyKeyRecord } from './auth.ts';
import { legacyEndpointName } from './methods.ts';
import { LEGACY_PREFIX, legacyFailure, legacyRoute, portAnswer } from './port-answer.ts';

export { LEGACY_PREFIX } from './port-answer.ts';

/** The port's answer to the request at hand; `key` when the caller already read the request's key. */
export type PortAnswer = (key?: { record: LegacyKeyRecord | undefined }) => Promise<Response>;

/**
 * Who answers a legacy request (spec 9.4, server/legacy-cutover): per key, the legacy service (shadow) or the
 * port (live), plus the sunset headers. Without it the port answers everything.
 */
export interface LegacyCutover {
  answer(request: Request, port: PortAnswer): Promise<Response>;
}

/**
 * The legacy PMS v1 facade, mounted on the root app before its error handler. One catch-all route
 * dispatches `{epClass}/{epMethod}` itself (unknown ones answer the 7.4 messages, never Elysia's 404), reads
 * the raw body itself (`parse: 'none'`), and every answer, failures included, is built by bytes.ts. The
 * HTTP verb is not checked, as the PHP dispatcher did not check it.
 */
export function legacyFacade(deps: Deps, cutover?: LegacyCutover) {
  const handle = async (request: Request, set: { headers: Record<string, unknown> }, server: PeerSource) => {
    const started = performance.now();
    // The client (the socket peer, or what a trusted proxy says): the cutover names it in its own `Forwarded`.
    requestState(request).address ??= clientAddress(request, server, deps.config.trustedProxies);
    const port: PortAnswer = (key) => portAnswer(deps, request, key);
    const response = cutover ? await cutover.answer(request, port) : await port();
    const url = new URL(request.url);
    const { epClass, epMethod } = legacyRoute(url);
    // The table's spelling, `unknown` for a path it lacks: a label taken from the path as sent made a new series
    // (a counter and a histogram of 14 buckets, in every process and in Prometheus, for good) for each path a
    // scanner tried, before any key was checked.
    const endpoint = legacyEndpointName(epClass, epMethod) ?? 'unknown';
    const seconds = (performance.now() - started) / 1000;
    legacyRequests.inc({ endpoint, status: String(response.status) });
    legacyRequestSeconds.observe({ endpoint }, seconds);
    // The same line as a modern request's (server/core/http/qc-plugin.ts); the path only, never the api_key.
    deps.log.info('legacy request', {
      request_id: requestState(request).id,
      method: request.method,
      path: url.pathname,
      status: response.status,
      endpoint,
      ms: Math.round(seconds * 10_000) / 10,
    });
    clearHeaders(set);
    return response;
  };
  return new Elysia({ prefix: LEGACY_PREFIX, name: 'qc-legacy' })
    .onError(({ request, error, set }) => {
      clearHeaders(set);
      return legacyFailure(deps, request, error);
    })
    .all('', ({ request, set, server }) => handle(request, set, server), { parse: 'none' })
    .all('/*', ({ request, set, server }) => handle(request, set, server), { parse: 'none' });
}

/**
 * Headers other hooks put on `set` (request ids, rate-limit headers) must never reach legacy answers; only
 * `X-Content-Type-Options: nosniff`, which every answer of the service carries (server/app.ts).
 */
function clearHeaders(set: { headers: Record<string, unknown> }): void {
  for (const name of Object.keys(set.headers)) if (name !== 'x-content-type-options') delete set.headers[name];
}
