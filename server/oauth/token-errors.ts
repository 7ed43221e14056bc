import type { ApiError } from '../core/http/api-error.ts';

/**
 * RFC 6749 5.2's `error` for the token endpoint's refusals: the handler's keys, the pipeline's own refusals (body too
 * large, media type, schema, malformed JSON) and our failures. OAuth client libraries read `error`, not our key; the
 * envelope stays as it is beside it. A refusal that carries its own code (a grant type, ./token.ts) keeps it. The
 * API document's error examples are built from this too (server/core/http/openapi-operation.ts), so they show the
 * `error` the service answers.
 *
 * - `errors.qc.invalid_client` (401): `invalid_client`; `errors.qc.invalid_scope` (422): `invalid_scope`.
 * - 413, 415, other 422s: `invalid_request` (a malformed request, RFC 6749 5.2).
 * - 503 (a backing service down; Retry-After says when): `temporarily_unavailable`; any other 5xx: `server_error`.
 *   RFC 6749 defines both for the authorization endpoint (4.1.2.1) only, yet they are the codes libraries know
 *   for "not your fault": better than a refusal with no `error`, which libraries report as a malformed answer.
 * - 429: none. RFC 6749 has no code for it, and each that would fit misleads: `invalid_request` (as AWS Sign-In
 *   answers) says the request is wrong and will stay wrong; `temporarily_unavailable` says the service is down for
 *   everyone; Auth0-style `too_many_requests` is registered nowhere. The status and Retry-After are the signal
 *   every HTTP client knows (RFC 6585), and the envelope's `errors.qc.rate_limit_exceeded` says the rest.
 */
export function tokenErrorCode(error: ApiError): { error?: string } {
  if (error.key === 'errors.qc.invalid_client') return { error: 'invalid_client' };
  if (error.key === 'errors.qc.invalid_scope') return { error: 'invalid_scope' };
  const status = error.status;
  if (status === 503) return { error: 'temporarily_unavailable' };
  if (status >= 500) return { error: 'server_error' };
  if (status === 413 || status === 415 || status === 422) return { error: 'invalid_request' };
  return {};
}

/**
 * RFC 6749 5.1 and 5.2: an answer that holds a token, or refuses one, is stored by no cache; Pragma for HTTP/1.0
 * caches, as RFC 6749 5.1 asks beside it.
 */
export const TOKEN_ANSWER_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;
