import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  isReadOnlyServer,
  sqlState,
  WriteOutcomeUnknown,
} from '../db/db.ts';
import type { Deps } from '../deps.ts';
import { errorFields } from '../log.ts';
import { dataExceptionsCaught } from '../metrics.ts';
import { ApiError, validationError } from './api-error.ts';
import { errorBody, jsonResponse } from './envelope.ts';
import { newTicket, recordIncident } from './incidents.ts';
import { requestAddress } from './request-address.ts';
import { requestState } from './request-state.ts';
import { fieldErrorsFrom } from './validation.ts';

/**
 * The one place a failure becomes a response on the JSON APIs (modern, ops, dashboard). Elysia's own
 * validation and parse output never reaches a client; anything unexpected is a 500 with a key and a
 * support ticket, never a stack trace.
 */
/**
 * What a route adds to each of its error answers, whatever refused it (a route definition is one: its
 * `errorExtra` and `answerHeaders`, server/core/routes/route.ts).
 */
export interface RouteErrorAdditions {
  errorExtra?: (error: ApiError) => Record<string, unknown>;
  answerHeaders?: Partial<Record<string, string>>;
}

export function renderError(
  deps: Deps,
  request: Request,
  code: string | number,
  error: unknown,
  resource = 'request',
  route?: RouteErrorAdditions,
): Response {
  const apiError = toApiError(code, error, resource);
  const state = requestState(request);
  state.errorStatus = apiError.status;
  const ticket = newTicket();
  const url = new URL(request.url);
  const caught = dataException(error);
  // A path no route serves is a caller's typo or a scanner, not an incident: no stored row and no refusal line; its
  // ticket is on its request line (server/app.ts), as every answer's is.
  if (code !== 'NOT_FOUND')
    recordIncident(deps.db, deps.log, ticket, {
      requestId: state.id,
      method: request.method,
      path: url.pathname,
      status: apiError.status,
      key: apiError.key,
      clientId: state.principal?.clientId,
      address: requestAddress(request, deps.config.trustedProxies),
      detail:
        apiError.status >= 500
          ? errorFields(error)
          : caught
            ? { caught_by: CLASS_22_NET, sqlstate: caught, ...errorFields(error) }
            : undefined,
    });
  // The partner's answer stays a 422, but the net hid a server bug once (a value the server built itself failed,
  // and partners' retries kept failing unseen): each catch is also a warning an operator can find and a counter
  // an operator can alert on (docs/operations.md, Metrics).
  if (caught) {
    dataExceptionsCaught.inc();
    deps.log.warn(`data exception caught by the ${CLASS_22_NET}`, {
      ticket,
      request_id: state.id,
      method: request.method,
      path: url.pathname,
      route: state.routeName,
      sqlstate: caught,
      error: errorFields(error).error,
    });
  }
  const extra = route?.errorExtra ? { ...route.errorExtra(apiError), ...apiError.extra } : apiError.extra;
  return jsonResponse(apiError.status, errorBody(apiError.key, extra), {
    ...state.headers,
    ...(route?.answerHeaders as Record<string, string> | undefined),
    ...apiError.headers,
    'x-qc-support-ticket': ticket,
  });
}

function toApiError(code: string | number, error: unknown, resource: string): ApiError {
  if (error instanceof ApiError) return error;
  // A parse hook's own refusal (the JSON depth rule, ./read-body.ts) arrives wrapped in Elysia's ParseError.
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (code === 'PARSE' && cause instanceof ApiError) return cause;
  // Before "not applied": the connection died after COMMIT (or an autocommit write) was sent.
  if (error instanceof WriteOutcomeUnknown)
    return new ApiError('errors.qc.write_outcome_unknown', {}, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
  if (isDatabaseUnavailable(error) || isReadOnlyServer(error)) return databaseUnavailable();
  // SQLSTATE class 22 (data exception: a value out of range, malformed for its type, a character the encoding
  // lacks) most often comes from what the client sent: a 422, never a 500, so bad input is never answered as our
  // failure. Input checks name the field; this is the net, and renderError reports each catch to operators.
  if (dataException(error)) return validationError({ request: [`customer.${resource}.messages.invalid`] });
  // A foreign key to a row that does not exist (SQLSTATE 23503 on insert or update: an id the client sent, such as an
  // unknown customer_id): 422 `in` on that column, as an unknown type_id is. The other side of 23503 (a delete of a
  // row still referenced) stays a 500: the write paths check that themselves.
  const missing = missingReference(error);
  if (missing) return validationError({ [missing]: [`customer.${resource}.messages.in`] });
  switch (code) {
    case 'VALIDATION': {
      const v = error as { all?: { type: number; path: string }[]; type?: string };
      return validationError(fieldErrorsFrom(v.all ?? [], resource, v.type ?? 'body'));
    }
    case 'PARSE':
      return validationError({ body: [`customer.${resource}.messages.malformed`] });
    case 'NOT_FOUND':
      return new ApiError('errors.not_found');
    case 'INVALID_COOKIE_SIGNATURE':
    case 'INVALID_FILE_TYPE':
      return validationError({ body: [`customer.${resource}.messages.invalid`] });
    default:
      return new ApiError('errors.internal_error');
  }
}

/** How the log line, the incident's `caught_by` and docs/operations.md name the net for data exceptions. */
const CLASS_22_NET = 'class-22 net';

/** The SQLSTATE of a database data exception (class 22), which the net answers 422; undefined for anything else. */
function dataException(error: unknown): string | undefined {
  const state = sqlState(error);
  return state?.startsWith('22') ? state : undefined;
}

/** A lost or unreachable database: the request was not applied (its transaction died with the connection). */
function databaseUnavailable(): ApiError {
  return new ApiError('errors.service_unavailable', {}, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
}

/** The column of a foreign key that names a row that does not exist (`Key (customer_id)=(9) is not present ...`). */
function missingReference(error: unknown): string | undefined {
  if (sqlState(error) !== '23503') return undefined;
  const detail = (error as { detail?: unknown }).detail;
  return typeof detail === 'string' ? /^Key \((\w+)\)=\(.*\) is not present in table/.exec(detail)?.[1] : undefined;
}
