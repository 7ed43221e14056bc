import type { Deps } from '../deps.ts';
import { countRequest } from '../metrics.ts';
import { requestPath } from './request-path.ts';
import { requestState } from './request-state.ts';

/**
 * Who made a request on a surface without partner principals, as its log line names them: `operator` on /ops, a
 * dashboard session's customer on the dashboard. Never a token or secret: the guard that read one says only whose.
 */
export interface RequestCaller {
  client_id: string;
  customer_id?: number;
}

/**
 * The request's log line and metrics, once its answer is decided: on the modern API in the map-response hook, which
 * sees success values and error answers alike, rather than after the response (Elysia runs that hook in a
 * setImmediate of its own per request: issue 27); on the operator surfaces and for paths no route serves the same.
 * `ms` is the time to the answer's value, before Bun writes it. An error answer's support ticket is on the line, so
 * a ticket is found in the logs even when no incident row or refusal line was written for it (a path no route
 * serves). The caller is the partner's client when the pipeline authenticated one, else `caller` as far as known.
 */
export function logRequest(
  deps: Deps,
  request: Request,
  value: unknown,
  set: { status?: number | string },
  caller?: RequestCaller,
): void {
  const state = requestState(request);
  const answer = value instanceof Response ? value : undefined;
  const status = state.errorStatus ?? (answer ? answer.status : set.status);
  // One clock read for both (a clock read is about 0.1 us on the bench machine).
  const now = performance.now();
  countRequest(state.routeName, request.method, status, state.startedAt, now);
  deps.log.info('request', {
    request_id: state.id,
    method: request.method,
    path: requestPath(request.url),
    status,
    route: state.routeName,
    client_id: caller ? caller.client_id : state.principal?.clientId,
    customer_id: caller?.customer_id,
    ticket: answer?.headers.get('x-qc-support-ticket') ?? undefined,
    ms: Math.round((now - state.startedAt) * 10) / 10,
  });
}
