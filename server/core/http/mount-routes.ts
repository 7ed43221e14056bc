import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Deps } from '../deps.ts';
import { replayingKeptCreates } from '../idempotency/kept-creates.ts';
import { pathRecord } from '../routes/path-record.ts';
import { Answer, type RouteDefinition, type SuccessStatus, successStatuses } from '../routes/route.ts';
import { operationDetail } from './openapi-operation.ts';
import type { QcApp } from './qc-app.ts';
import { requestState } from './request-state.ts';
import { withUndeclaredWarnings } from './undeclared-fields.ts';

/**
 * Mounts route definitions on the modern app: one loop, so every operation gets the same pipeline hook,
 * schemas and OpenAPI operation (./openapi-operation.ts), and no route file touches Elysia.
 *
 * With QC_CHECK_RESPONSES=1 (the test suite sets it) every success status is checked against the ones the
 * definition declares and every success body against its response schema, so the document cannot drift from
 * what is answered.
 */
export function mountRoutes(app: QcApp, deps: Deps, definitions: readonly RouteDefinition[]): void {
  const checkResponses = process.env.QC_CHECK_RESPONSES === '1';
  for (const definition of definitions) {
    const check = checkResponses ? TypeCompiler.Compile(definition.response) : undefined;
    // A read creates nothing, so it has no kept create to replay: it skips that wrapper (issue 27, per request).
    const read = definition.method === 'GET';
    const record = definition.pathRecord;
    const answerHeaders = definition.answerHeaders;
    const handler = async (ctx: {
      params: unknown;
      query: unknown;
      body: unknown;
      request: Request;
      set: { status?: number | string; headers: Record<string, string | number> };
    }) => {
      const principal = requestState(ctx.request).principal as never;
      const input = { deps, principal, params: ctx.params, query: ctx.query, body: ctx.body, request: ctx.request };
      // The path's record the pipeline resolved before the body (the same promise: no second look-up).
      const handle = record
        ? async () =>
            definition.handle(
              input as never,
              await pathRecord(deps, record, principal, ctx.request, ctx.params as Record<string, string>),
            )
        : () => definition.handle(input as never, undefined);
      const result = read ? await handle() : await replayingKeptCreates(deps.db, ctx.request, handle);
      if (result instanceof Response) return result;
      const answered = result instanceof Answer;
      const status = answered ? result.status : (definition.status ?? 200);
      const raw = answered ? result.body : result;
      const body = status < 300 ? withUndeclaredWarnings(ctx.request, raw) : raw;
      if (check && status < 300 && !successStatuses(definition).includes(status as SuccessStatus))
        throw new Error(`${definition.name} answered ${status}, a success status its definition does not declare`);
      if (check && status < 300 && !check.Check(body)) {
        const first = [...check.Errors(body)].slice(0, 3);
        throw new Error(`${definition.name} answered a body its response schema refuses: ${JSON.stringify(first)}`);
      }
      ctx.set.status = status;
      if (answerHeaders) Object.assign(ctx.set.headers, answerHeaders);
      if (answered) Object.assign(ctx.set.headers, result.headers);
      return body;
    };
    // The one cast between our definitions and Elysia's per-method overloads.
    (app as unknown as { route: (...args: unknown[]) => unknown }).route(definition.method, definition.path, handler, {
      qc: definition,
      params: definition.params,
      query: definition.query,
      body: definition.body,
      ...(definition.contentTypes ? { type: [...definition.contentTypes] } : {}),
      detail: operationDetail(definition),
    });
  }
}
