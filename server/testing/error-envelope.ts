import { type ErrorKey, errorCatalogue } from '../core/http/error-catalogue.ts';

/**
 * The error body a test expects for a key: the envelope with the catalogue's `detail` sentence beside the
 * key. Validation errors name their field in `detail`: tests spell those sentences out instead.
 */
export function errorEnvelope(key: ErrorKey, extra: Record<string, unknown> = {}) {
  return { status: 'error', message: key, detail: errorCatalogue[key].detail, ...extra };
}

/** The 422 body of a validation error: the sentence naming the first failing field, and each field's rules. */
export function validationEnvelope(detail: string, errors: Record<string, string[]>) {
  return errorEnvelope('errors.validation_error', { detail, errors });
}
