import type { Deps } from '../deps.ts';
import { replayingKeptCreates } from '../idempotency/kept-creates.ts';
import type { OperatorRouteDefinition } from '../routes/operator-route.ts';
import { Answer } from '../routes/route.ts';
import type { JsonApp } from './json-app.ts';
import { refuseInvalidJsonBody } from './json-body.ts';
import { withOperatorIdempotency } from './operator-idempotency.ts';
import { refuseUnstorable } from './read-body.ts';
import { logRequest, type RequestCaller } from './request-log.ts';
import { requestState } from './request-state.ts';
import { noteUndeclaredFields, withUndeclaredWarnings } from './undeclared-fields.ts';

/**
 * Mounts operator route definitions on their surface's JSON app (which holds the surface's guard): one loop,
 * so every operation gets the same schemas and no operation file touches Elysia. `callerOf` names who the guard
 * admitted (undefined when it refused), for the request's log line; `customerOf` reads the customer the guard
 * authenticated (dashboard sessions); the operator acts for no one customer.
 */
export function mountOperatorRoutes(
  app: JsonApp,
  deps: Deps,
  definitions: readonly OperatorRouteDefinition[],
  callerOf: (request: Request) => RequestCaller | undefined,
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
      const run = async () => {
        const result = await replayingKeptCreates(deps.db, ctx.request, () =>
          definition.handle({
            deps,
            params: ctx.params,
            query: ctx.query,
            body: ctx.body,
            customerId: customerOf(ctx.request),
            request: ctx.request,
          } as never),
        );
        const answer =
          result instanceof Answer
            ? { status: result.status, body: result.body, headers: result.headers as Record<string, string> }
            : { status: 200, body: result, headers: {} };
        // Named before the idempotency store keeps the answer, so a replay names them too.
        if (answer.status < 300) answer.body = withUndeclaredWarnings(ctx.request, answer.body);
        return answer;
      };
      // Creates honour Idempotency-Key (operator-idempotency.ts), unless the operation keeps its own key.
      if (!definition.ownIdempotencyKey) {
        const scope = `${definition.surface}:${customerOf(ctx.request)}`;
        const keyed = await withOperatorIdempotency(deps, ctx.request, scope, ctx.body, run, definition.shownOnce);
        if (keyed) return keyed;
      }
      const answer = await run();
      ctx.set.status = answer.status;
      Object.assign(ctx.set.headers, answer.headers);
      return answer.body;
    };
    // The one cast between our definitions and Elysia's per-method overloads.
    (app as unknown as { route: (...args: unknown[]) => unknown }).route(definition.method, definition.path, handler, {
      params: definition.params,
      query: definition.query,
      body: definition.body,
      // Text PostgreSQL cannot store (a NUL, a lone surrogate: it was stored as U+FFFD, or a 422 naming no field)
      // is refused on its field, as on the partner API; then the body as sent, before Elysia reshapes it
      // (./json-body.ts): "hello" was read as an empty object.
      transform: ({
        request,
        body,
        params,
        query,
      }: {
        request: Request;
        body: unknown;
        params: unknown;
        query: unknown;
      }) => {
        refuseUnstorable(params, 'request', 'params');
        refuseUnstorable(query, 'request', 'query');
        refuseUnstorable(body, 'request');
        refuseInvalidJsonBody(definition.body, request, body, 'request');
        // Validation drops a field the operation does not declare: the answer names it, as on the modern API.
        noteUndeclaredFields(definition.body, request, body);
      },
      // Every answer, the guard's refusals included (this hook runs for them too): the request's log line under the
      // operation's name, and its count in qc_http_requests_total, as on the partner API. Minting a credential
      // leaves a trace; the line names who asked, never the token or the body.
      mapResponse: ({
        request,
        responseValue,
        set,
      }: {
        request: Request;
        responseValue: unknown;
        set: { status?: number | string };
      }) => {
        requestState(request).routeName = definition.name;
        logRequest(deps, request, responseValue, set, callerOf(request));
      },
      detail: { summary: definition.summary, description: definition.description, tags: [definition.surface] },
    });
  }
  return app;
}
