import type { Deps } from '../deps.ts';
import { authenticate } from './authenticate.ts';
import type { Principal } from './principal.ts';

/**
 * The client a request's bearer names, for the log line of a request no route serves (server/app.ts): a partner
 * hammering a wrong URL is then found by its client_id, not only by its address. It is the routes' own look-up
 * (./authenticate.ts), so it costs what a request to a route costs and no more: a token verified before and a cached
 * client row answer without the database; a row not cached yet is read once and kept, as for any route. A missing,
 * invalid or revoked bearer, or a failed look-up, names no one, and the answer (404, or 429) stays what it was.
 */
export async function bearerClient(deps: Deps, authorization: string | null): Promise<Principal | undefined> {
  if (!authorization) return undefined;
  try {
    return await authenticate(deps, authorization);
  } catch {
    return undefined;
  }
}
