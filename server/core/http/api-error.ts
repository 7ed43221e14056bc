/**
 * The one error type. Domain code raises ApiError (or returns one) with the spec's key; one handler renders
 * every failure in the envelope. Keys never change meaning; new keys may appear.
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    /** Extra top-level body fields beside status/message (for example `errors` or `usages`). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (for example Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'ApiError';
  }
}

export const unauthorized = () => new ApiError(401, 'errors.unauthorized');
export const notFound = () => new ApiError(404, 'errors.not_found');
export const insufficientScope = () => new ApiError(403, 'errors.qc.insufficient_scope');
export const endpointNotAllowed = () => new ApiError(403, 'errors.qc.endpoint_not_allowed');

/** 422 errors.validation_error with an `errors` map: field path -> ['customer.<resource>.messages.<rule>']. */
export function validationError(errors: FieldErrors): ApiError {
  return new ApiError(422, 'errors.validation_error', { errors });
}

/** Shorthand for one failing field. */
export function fieldError(resource: string, field: string, rule: string): ApiError {
  return validationError({ [field]: [`customer.${resource}.messages.${rule}`] });
}
