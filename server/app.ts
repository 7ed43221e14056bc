import { Elysia } from 'elysia';
import { legacyFacade } from '../legacy/facade.ts';
import { bearerClient } from './core/auth/bearer-client.ts';
import { principalsSynced } from './core/auth/principal-cache.ts';
import type { Deps } from './core/deps.ts';
import { clientAddress, type PeerSource } from './core/http/client-address.ts';
import { mountRoutes } from './core/http/mount-routes.ts';
import { createQcApp } from './core/http/qc-app.ts';
import { renderError } from './core/http/render-error.ts';
import { logRequest } from './core/http/request-log.ts';
import { requestState } from './core/http/request-state.ts';
// Before any request is validated: fast uuid and date checks in place of the OpenAPI plugin's (issue 27).
import './core/http/string-formats.ts';
import { publicDocuments, spendPublicBudget } from './core/limits/public-budget.ts';
import { galleryMedia } from './gallery/serve-image.ts';
import { healthRoutes, type ReadinessProbe } from './health/routes.ts';
import { createLegacyCutover, type LegacyCutoverParts } from './legacy-cutover/legacy-cutover.ts';
import { metricsRoutes } from './metrics/routes.ts';
import { openapiRoutes, setSpecSource } from './openapi/routes.ts';
import { dashboardApi, opsApi } from './operator/operator-api.ts';
import { operatorRouteTable } from './operator-route-table.ts';
import { routeTable } from './route-table.ts';

export interface AppOptions {
  operatorToken: string;
  probes?: readonly ReadinessProbe[];
  /** The legacy cutover's parts (server/main.ts keeps them to finish queued comparisons on shutdown). */
  cutover?: LegacyCutoverParts;
}

/** The modern partner API: every route file registered explicitly, so the route table reads here. */
function modernApi(deps: Deps) {
  const app = createQcApp(deps);
  mountRoutes(app, deps, routeTable);
  return app;
}

export function buildApp(deps: Deps, options: AppOptions) {
  const cutover = options.cutover ?? createLegacyCutover(deps);
  const operatorRoutes = operatorRouteTable(cutover);
  const app = new Elysia({ name: 'qc-root' })
    // Every answer, JSON or not, errors and legacy bytes included: a browser never sniffs a stored string
    // (content pages, feedback, templates) into HTML or script.
    .onRequest(({ set }) => {
      set.headers['x-content-type-options'] = 'nosniff';
    })
    .use(publicDocuments(deps, openapiRoutes(deps.config.publicUrl)))
    .use(healthRoutes(deps, options.probes ?? []))
    // The modern API's writes wait for the principal cache in their own hook (server/core/http/qc-plugin.ts), so
    // its reads skip an awaited hook (issue 27); the hook below applies to the surfaces used after it only (an
    // Elysia global hook does not reach routes used before it), and the two above answer GETs alone.
    .use(modernApi(deps))
    // Cached principals are dropped on the commit notification; a write of this process waits until its own
    // changes have reached the cache before its answer leaves, so its caller's next request never races it.
    .onAfterHandle({ as: 'global' }, async ({ request }) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') await principalsSynced(deps.db);
    })
    .use(opsApi(deps, options.operatorToken, operatorRoutes))
    .use(metricsRoutes(deps, options.operatorToken))
    .use(dashboardApi(deps, operatorRoutes))
    .use(galleryMedia(deps))
    // The legacy PMS v1 facade answers every /api/pms/v1 path itself, failures included, byte for byte; per
    // key, the cutover hands it to the legacy service instead (shadow).
    .use(legacyFacade(deps, cutover.router))
    // Only unmatched routes reach here: the JSON surfaces have their own handlers. Such an answer is no incident
    // (render-error.ts stores no row for it), but it is a request like any other: its log line, with its ticket,
    // and its count under the route `unmatched` (a scanner shows up in the metrics, a quoted ticket in the logs).
    .onError(async ({ request, code, error, server, set }) => {
      const answer = await answerUnmatched(deps, request, code, error, server);
      logRequest(deps, request, answer, set);
      return answer;
    });
  setSpecSource((request) => app.handle(request));
  return app;
}

export type App = ReturnType<typeof buildApp>;

/**
 * A path no route serves (a wrong method on a known path too: the router has no 405) spends the public budget of its
 * address (429 past it), then is a 404 with a ticket; its caller is the bearer's client, when valid.
 */
async function answerUnmatched(
  deps: Deps,
  request: Request,
  code: string | number,
  error: unknown,
  server: PeerSource,
): Promise<Response> {
  if (code === 'NOT_FOUND') {
    // Named on its log line (and on the incident of a 429) when its bearer is valid: docs/operations.md, Logs.
    const principal = await bearerClient(deps, request.headers.get('authorization'));
    if (principal) requestState(request).principal = principal;
    try {
      await spendPublicBudget(deps, request, clientAddress(request, server, deps.config.trustedProxies));
    } catch (refused) {
      return renderError(deps, request, 'UNKNOWN', refused);
    }
  }
  return renderError(deps, request, code, error);
}
