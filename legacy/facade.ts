import { Elysia } from 'elysia';
import type { Deps } from '../server/core/deps.ts';
import { errorFields } from '../server/core/log.ts';
import { authenticateLegacyKey } from './auth.ts';
import { messageResponse, thrownErrorMessage } from './bytes.ts';
import { LegacyError, messages } from './messages.ts';
import { legacyClass } from './methods.ts';
import { parseBody, parseQuery } from './php-input.ts';

export const LEGACY_PREFIX = '/api/pms/v1';

/**
 * The legacy PMS v1 facade, mounted on the root app before its error handler. One catch-all route
 * dispatches `{epClass}/{epMethod}` itself (unknown ones answer the 7.4 messages, never Elysia's 404), reads
 * the raw body itself (`parse: 'none'`), and every answer, failures included, is built by bytes.ts. The
 * HTTP verb is not checked, as the PHP dispatcher did not check it.
 */
export function legacyFacade(deps: Deps) {
  const handle = async (request: Request, set: { headers: Record<string, unknown> }) => {
    const response = await answer(deps, request);
    clearHeaders(set);
    return response;
  };
  return new Elysia({ prefix: LEGACY_PREFIX, name: 'qc-legacy' })
    .onError(({ request, error, set }) => {
      clearHeaders(set);
      return failure(deps, request, error);
    })
    .all('', ({ request, set }) => handle(request, set), { parse: 'none' })
    .all('/*', ({ request, set }) => handle(request, set), { parse: 'none' });
}

async function answer(deps: Deps, request: Request): Promise<Response> {
  const started = performance.now();
  const url = new URL(request.url);
  const [epClass = '', epMethod = ''] = url.pathname
    .slice(LEGACY_PREFIX.length + 1)
    .split('/')
    .map(decodeSegment);
  let response: Response;
  try {
    const methods = legacyClass(epClass);
    if (!methods) throw new LegacyError(404, messages.dispatch.missingClass(epClass));
    const method = methods.get(epMethod.toLowerCase());
    if (!method) throw new LegacyError(404, messages.dispatch.missingMethod(epMethod));
    const query = parseQuery(url.search);
    const caller = await authenticateLegacyKey(deps.db, query.api_key);
    const body = parseBody(await request.text(), request.headers.get('content-type'));
    response = await method({ deps, caller, query, body, request });
  } catch (error) {
    response = failure(deps, request, error);
  }
  deps.log.info('legacy request', {
    method: request.method,
    endpoint: `${epClass}/${epMethod}`,
    status: response.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
  return response;
}

function failure(deps: Deps, request: Request, error: unknown): Response {
  if (error instanceof LegacyError) return messageResponse(error.status, error.message, error.headers);
  deps.log.error('legacy unhandled failure', { path: new URL(request.url).pathname, ...errorFields(error) });
  return messageResponse(404, thrownErrorMessage(error));
}

/** A path segment with a malformed percent escape (URIError) is dispatched as sent, as PHP did. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    return segment;
  }
}

/** Headers other hooks put on `set` (request ids, rate-limit headers) must never reach legacy bytes. */
function clearHeaders(set: { headers: Record<string, unknown> }): void {
  for (const name of Object.keys(set.headers)) delete set.headers[name];
}
