import { bearerToken } from '../core/auth/credentials.ts';
import { safeEqual } from '../core/auth/secrets.ts';
import type { Deps } from '../core/deps.ts';
import { unauthorized } from '../core/http/api-error.ts';
import { createJsonApp } from '../core/http/json-app.ts';
import { metricsRegistry, scrapeMetrics } from '../core/metrics.ts';

/**
 * GET /metrics: the Prometheus exposition (server/core/metrics.ts), for the operator's scraper. It shows
 * traffic per route and client-independent internals, so it takes the operator token like /ops
 * (Prometheus: `authorization: {credentials: <QC_OPERATOR_TOKEN>}` in the scrape config).
 */
export function metricsRoutes(deps: Deps, operatorToken: string) {
  return createJsonApp(deps, '', 'qc-metrics')
    .onTransform(({ request }) => {
      const bearer = bearerToken(request.headers.get('authorization')) ?? '';
      if (!safeEqual(bearer, operatorToken)) throw unauthorized(bearer);
    })
    .get(
      '/metrics',
      async () =>
        new Response(await scrapeMetrics(deps.db, deps.clock.now()), {
          headers: { 'content-type': metricsRegistry.contentType },
        }),
    );
}
