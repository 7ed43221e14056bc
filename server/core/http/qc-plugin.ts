import { Elysia } from 'elysia';
import type { Principal } from '../auth/principal.ts';
import { principalsSynced } from '../auth/principal-cache.ts';
import type { Deps } from '../deps.ts';
import {
  abandonIdempotentRequest,
  bodyWasKept,
  finishIdempotentRequest,
  IdempotentReplay,
  keepRawBody,
  replayKeptAnswer,
  startIdempotentRequest,
} from '../idempotency/idempotent-request.ts';
import { pathProperty, underProperty } from '../routes/in-property.ts';
import { type PathRecordResolver, pathRecord } from '../routes/path-record.ts';
import type { RouteDefinition, RouteSpec } from '../routes/route.ts';
import { admitCaller } from './admission.ts';
import { ApiError } from './api-error.ts';
import { requireDeclaredContentType } from './content-type.ts';
import { refuseInvalidJsonBody } from './json-body.ts';
import { bodyLimitOf, parseBody, readRawBody, refuseUnstorable } from './read-body.ts';
import { renderError } from './render-error.ts';
import { logRequest } from './request-log.ts';
import { requestState } from './request-state.ts';
import { noteUndeclaredFields } from './undeclared-fields.ts';

/**
 * The modern API's request pipeline. Every route is mounted with `{ qc: <its definition> }`; the macro then, before
 * body validation (so a missing token is a 401, not a 422):
 *   1. authenticates the bearer (401 errors.unauthorized),
 *   2. checks the route's scope (403 errors.qc.insufficient_scope),
 *   3. checks the token's endpoint allow-list (403 errors.qc.endpoint_not_allowed),
 *   4. spends the route's rate-limit budget (429 errors.qc.rate_limit_exceeded), rejected requests
 *      included, so every response carries the X-RateLimit-* headers,
 *   5. on a route under /properties/:property, resolves the path's property for the caller (404 errors.not_found
 *      when it is missing or outside the token's property allow-list), and on a route that declares the record
 *      its path names (a booking button, a policy under the property: RouteDefinition.pathRecord), then that
 *      record; before a byte of the body is read. A keyed write refused for its record replays the answer its key
 *      kept, if any (a DELETE that went through), and claims nothing,
 *   6. claims the Idempotency-Key of a write (replay, 409, or run), see server/core/idempotency/.
 * Only then is the body read and checked (413, 415, 422).
 */
export function qcPipeline(deps: Deps) {
  return new Elysia({ name: 'qc-pipeline' })
    .onRequest(({ request }) => {
      requestState(request);
    })
    .macro({
      qc: (spec: RouteSpec) => {
        // Decided once per route: the path check runs on every request (issue 27).
        const property = underProperty(spec);
        const record = (spec as RouteDefinition).pathRecord;
        return {
          // The body is read here, not by Elysia: a route that needs a token reads no byte of it before the
          // caller is authenticated and within budget, and no body is parsed before it is bounded.
          async parse({ request, server, params }) {
            if (spec.auth !== 'none') await admitCaller(deps, spec, request, undefined, server);
            await checkPath(deps, spec, property, record, request, params);
            // No body at all (a DELETE): leave it to Elysia, which then has nothing to parse.
            if (!request.body) return;
            const raw = await readRawBody(request, bodyLimitOf(spec));
            keepRawBody(request, raw);
            const body = await parseBody(request, raw, spec.resource, spec.parse === 'text');
            // The token route answers bad credentials itself (401 invalid_client), NUL included.
            if (spec.auth !== 'none') refuseUnstorable(body, spec.resource);
            return body;
          },
          async transform({ request, body, query, params, server }) {
            await admitCaller(deps, spec, request, body, server);
            await checkPath(deps, spec, property, record, request, params);
            if (spec.queryReading !== 'lenient') refuseUnstorable(query, spec.resource);
            requireDeclaredContentType(spec, request, body);
            noteUndeclaredFields((spec as RouteDefinition).body, request, body);
            const principal = requestState(request).principal;
            if (principal && request.method !== 'GET' && request.method !== 'HEAD') {
              // Its reads stay on the primary while a replica might not have this write yet (read your writes).
              deps.reads.wrote(principal.clientPk);
              await startIdempotentRequest(deps, spec, request, principal);
            }
            refuseInvalidJsonBody((spec as RouteDefinition).body, request, body, spec.resource);
          },
          // A write answers once its own changes have reached the principal cache (server/app.ts has the same
          // hook for the other surfaces): per route, so a read, and a write that changes no principal, has no
          // awaited hook for it.
          ...(spec.method === 'GET' || spec.principals === 'untouched'
            ? {}
            : {
                async afterHandle() {
                  await principalsSynced(deps.db);
                },
              }),
          // A keyed write that ended without storing its answer gives its key back. Per route too: Elysia runs an
          // after-response hook in a setImmediate of its own for every request, and a read has nothing to give back.
          ...(spec.method === 'GET'
            ? {}
            : {
                async afterResponse({ request }: { request: Request }) {
                  await abandonIdempotentRequest(deps, request);
                },
              }),
          async error({ request, code, error, server, set }) {
            if (error instanceof IdempotentReplay) return replay(error, set);
            if (code === 'PARSE') {
              // Refused while reading the body (401, 413, 422): admit a route without a token now, so it is
              // answered like any other (rate-limit headers) rather than skipping checks.
              const cause = (error as { cause?: unknown }).cause;
              // The path's record refused before the body, where its key had an answer kept (checkPath).
              if (cause instanceof IdempotentReplay) return replay(cause, set);
              try {
                await admitCaller(deps, spec, request, undefined, server);
                // A keyed write refused for the body it sent is answered (and replayed) like any other refusal;
                // one refused before its body was read whole has nothing to key its answer by.
                const principal = requestState(request).principal;
                if (principal && bodyWasKept(request)) await startIdempotentRequest(deps, spec, request, principal);
              } catch (rejected) {
                if (rejected instanceof IdempotentReplay) return replay(rejected, set);
                return renderError(deps, request, 'UNKNOWN', rejected, spec.resource, spec as RouteDefinition);
              }
              return renderError(
                deps,
                request,
                cause instanceof ApiError ? 'UNKNOWN' : code,
                cause ?? error,
                spec.resource,
                spec as RouteDefinition,
              );
            }
            return renderError(deps, request, code, error, spec.resource, spec as RouteDefinition);
          },
        };
      },
    })
    .onAfterHandle({ as: 'scoped' }, ({ request, set }) => {
      Object.assign(set.headers, requestState(request).headers);
    })
    .mapResponse({ as: 'scoped' }, ({ request, responseValue, set }) => {
      // The read-your-writes window runs from the write's answer, not its start.
      const writer = requestState(request).principal;
      if (writer && request.method !== 'GET' && request.method !== 'HEAD') deps.reads.wrote(writer.clientPk);
      logRequest(deps, request, responseValue, set);
      // Sees success values and error responses alike: the one place a keyed write's answer is stored.
      return finishIdempotentRequest(deps, request, responseValue, set);
    });
}

/**
 * The path before the body: its parameters PostgreSQL cannot store are a 422 naming them, on a route under
 * /properties/:property its property is resolved for the caller (./routes/in-property.ts, 404), and on a route
 * that declares its path's record, that record, after the property (./routes/path-record.ts, 404). Parse and
 * transform both run it (a read has no parse hook); the property and record are looked up once.
 */
function checkPath(
  deps: Deps,
  spec: RouteSpec,
  underProperty: boolean,
  record: PathRecordResolver<unknown> | undefined,
  request: Request,
  params: Record<string, string>,
): Promise<unknown> | undefined {
  refuseUnstorable(params, spec.resource);
  const principal = requestState(request).principal;
  if (!principal) return undefined;
  const property = underProperty ? pathProperty(deps, principal, request, params) : undefined;
  if (!record) return property;
  return recordOrKeptAnswer(deps, spec, record, principal, request, params, property);
}

/**
 * The path's record, once its property (if any) is the caller's. A keyed write whose record is refused (404)
 * first replays what its key answered, as its claim would have: a DELETE that went through leaves no record to
 * find, and its keyed retry must replay the first answer, not a 404 (README, Rate limits and idempotency). Only
 * then, and only for a keyed write, is the store asked, so a found record, a read and a write without a key cost
 * nothing more. The refusal claims no key: a 404 for the path is answered on its own.
 */
async function recordOrKeptAnswer(
  deps: Deps,
  spec: RouteSpec,
  record: PathRecordResolver<unknown>,
  principal: Principal,
  request: Request,
  params: Record<string, string>,
  property: Promise<unknown> | undefined,
): Promise<unknown> {
  await property;
  try {
    return await pathRecord(deps, record, principal, request, params);
  } catch (refused) {
    if (refused instanceof ApiError && refused.key === 'errors.not_found') {
      // The body is read only when the key holds an answer, and only to compare it: none is kept for a body
      // beyond the route's limit.
      const rawBody = () => readRawBody(request, bodyLimitOf(spec)).catch(() => undefined);
      await replayKeptAnswer(deps, request, principal, rawBody);
    }
    throw refused;
  }
}

/**
 * A replay leaves through the route's error hook, where Elysia answers a returned Response of status 200
 * with the error's status (500) unless `set.status` says otherwise: a replayed 200 came back as a 500.
 */
function replay(stored: IdempotentReplay, set: { status?: number | string }): Response {
  set.status = stored.response.status;
  return stored.response;
}
