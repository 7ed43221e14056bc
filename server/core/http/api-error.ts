import { type ErrorKey, statusOf } from './error-catalogue.ts';

/**
 * The one error type. Domain code raises an ApiError with a key of the closed catalogue
 * (./error-catalogue.ts); the status comes from the catalogue, and one handler renders every failure in the
 * envelope. Keys never change meaning; new keys may appear.
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly key: ErrorKey,
    /** Extra top-level body fields beside status/message (for example `errors` or `usages`). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (for example Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'ApiError';
    this.status = statusOf(key);
  }
}

/**
 * 401 with the RFC 6750 challenge, so OAuth libraries know to fetch a new token: `error="invalid_token"`
 * when a bearer was sent and refused, no error attribute when none was sent (RFC 6750 3.1).
 */
export const unauthorized = (sentToken: string | null | undefined) =>
  new ApiError(
    'errors.unauthorized',
    {},
    { 'www-authenticate': sentToken ? 'Bearer error="invalid_token"' : 'Bearer' },
  );
export const notFound = () => new ApiError('errors.not_found');
export const insufficientScope = (scope: string) =>
  new ApiError(
    'errors.qc.insufficient_scope',
    {},
    { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
  );
export const endpointNotAllowed = () => new ApiError('errors.qc.endpoint_not_allowed');

/** 422 errors.validation_error with an `errors` map: field path -> ['customer.<resource>.messages.<rule>']. */
export function validationError(errors: FieldErrors): ApiError {
  return new ApiError('errors.validation_error', { errors });
}

/** Shorthand for one failing field. */
export function fieldError(resource: string, field: string, rule: string): ApiError {
  return validationError({ [field]: [`customer.${resource}.messages.${rule}`] });
}
