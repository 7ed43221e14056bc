import type { Principal } from '../auth/principal.ts';
import type { PropertyRow } from '../resolve.ts';
import type { PeerSource } from './client-address.ts';

/**
 * Per-request facts shared by the hooks of one request (request id, start time, the authenticated principal).
 * Keyed by the Request object so nothing leaks between requests.
 */
export interface RequestState {
  id: string;
  startedAt: number;
  principal?: Principal;
  routeName?: string;
  /** The peer address, once a hook that has the server learned it (budgets and incidents of unknown callers). */
  address?: string;
  /**
   * The server that took the request in, until its peer address is read (./client-address.ts `requestAddress`):
   * a read of a known client never needs the address, and reading it is a system call (issue 27).
   */
  peer?: PeerSource;
  /** The pipeline's authentication and rate-limit step, run once (server/core/http/qc-plugin.ts). */
  admission?: Promise<void>;
  /** The path's property of a route under /properties/:property, resolved once (server/core/routes/in-property.ts). */
  property?: Promise<PropertyRow>;
  /** The path's record of a route that declares one (a booking button), resolved once (server/core/routes/path-record.ts). */
  pathRecord?: Promise<unknown>;
  /**
   * The status of the error answer rendered for this request (server/core/http/render-error.ts). Elysia's
   * `set.status` stays 500 for a thrown error that carries no status of its own, even when it is answered 422.
   */
  errorStatus?: number;
  /** Body fields the route does not declare, named in the answer (./undeclared-fields.ts). */
  undeclared?: string[];
  /** Headers every response of this request carries (request id, rate-limit headers). */
  headers: Record<string, string>;
}

// A symbol-keyed property of the Request rather than a WeakMap entry: several hooks read it per request, and a
// property read costs next to nothing where a WeakMap look-up costs about 20 ns (issue 27). Nothing outside this file sees it.
const STATE = Symbol('qc.requestState');

export function requestState(request: Request): RequestState {
  const holder = request as Request & { [STATE]?: RequestState };
  let state = holder[STATE];
  if (!state) {
    const id = crypto.randomUUID();
    state = { id, startedAt: performance.now(), headers: { 'x-qc-request-id': id } };
    holder[STATE] = state;
  }
  return state;
}
