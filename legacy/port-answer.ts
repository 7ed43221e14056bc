import type { Deps } from '../server/core/deps.ts';
import { errorFields } from '../server/core/log.ts';
import { admitLegacyKey, findLegacyKey, type LegacyKeyRecord } from './auth.ts';
import { messageResponse, thrownErrorMessage } from './bytes.ts';
import { LegacyError, messages } from './messages.ts';
import { legacyClass } from './methods.ts';
import { parseQuery, readBody } from './php-input.ts';

export const LEGACY_PREFIX = '/api/pms/v1';

/** `{epClass}/{epMethod}` of a legacy URL, decoded as PHP's dispatcher saw them. */
export function legacyRoute(url: URL): { epClass: string; epMethod: string } {
  const [epClass = '', epMethod = ''] = url.pathname
    .slice(LEGACY_PREFIX.length + 1)
    .split('/')
    .map(decodeSegment);
  return { epClass, epMethod };
}

/**
 * The port's own answer to one legacy request: dispatch (an unknown class or method answers its 7.4 message
 * before the key is looked at), the key, the method, and every failure as legacy bytes. `key`: the key as
 * the caller already read it for this request, so it is read once; absent, it is read here.
 */
export async function portAnswer(
  deps: Deps,
  request: Request,
  key?: { record: LegacyKeyRecord | undefined },
): Promise<Response> {
  const url = new URL(request.url);
  const { epClass, epMethod } = legacyRoute(url);
  try {
    const methods = legacyClass(epClass);
    if (!methods) throw new LegacyError(404, messages.dispatch.missingClass(epClass));
    const method = methods.get(epMethod.toLowerCase());
    if (!method) throw new LegacyError(404, messages.dispatch.missingMethod(epMethod));
    const query = parseQuery(url.search);
    const record = key ? key.record : await findLegacyKey(deps.db, query.api_key);
    const caller = admitLegacyKey(query.api_key, record);
    const body = await readBody(request);
    return await method({ deps, caller, query, body, request });
  } catch (error) {
    return legacyFailure(deps, request, error);
  }
}

export function legacyFailure(deps: Deps, request: Request, error: unknown): Response {
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
