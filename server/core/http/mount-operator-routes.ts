import type { Deps } from '../deps.ts';
import type { OperatorRouteDefinition } from '../routes/operator-route.ts';
import { Answer } from '../routes/route.ts';
import type { JsonApp } from './json-app.ts';

/**
 * Mounts operator route definitions on their surface's JSON app (which holds the surface's guard): one loop,
 * so every operation gets the same schemas and no operation file touches Elysia. `customerOf` reads the
 * customer the guard authenticated (dashboard sessions); the operator acts for no one customer.
 */
export function mountOperatorRoutes(
  app: JsonApp,
  deps: Deps,
  definitions: readonly OperatorRouteDefinition[],
  customerOf: (request: Request) => number = () => 0,
): JsonApp {
  for (const definition of definitions) {
    const handler = async (ctx: {
      params: unknown;
      query: unknown;
      body: unknown;
      request: Request;
      set: { status?: number | string; headers: Record<string, string | number> };
    }) => {
      const result = await definition.handle({
        deps,
        params: ctx.params,
        query: ctx.query,
        body: ctx.body,
        customerId: customerOf(ctx.request),
        request: ctx.request,
      } as never);
      if (!(result instanceof Answer)) return result;
      ctx.set.status = result.status;
      Object.assign(ctx.set.headers, result.headers);
      return result.body;
    };
    // The one cast between our definitions and Elysia's per-method overloads.
    (app as unknown as { route: (...args: unknown[]) => unknown }).route(definition.method, definition.path, handler, {
      params: definition.params,
      query: definition.query,
      body: definition.body,
      detail: { summary: definition.summary, description: definition.description, tags: [definition.surface] },
    });
  }
  return app;
}
