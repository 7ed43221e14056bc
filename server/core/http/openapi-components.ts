import type { Scope } from '../auth/scopes.ts';

/**
 * The reusable parts of the OpenAPI document: the response headers of every modern answer, the
 * Idempotency-Key parameter, the error envelope and the two ways to authenticate. Operations refer to them
 * by `$ref` (see ./openapi-operation.ts), so a header is described once however many operations send it.
 */
export const ref = {
  header: (name: HeaderName) => ({ $ref: `#/components/headers/${name}` }),
  schema: (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` }),
  idempotencyKey: { $ref: '#/components/parameters/IdempotencyKey' },
} as const;

const headers = {
  'X-RateLimit-Limit': {
    description: "The bucket's per-minute budget for this client.",
    schema: { type: 'integer', example: 300 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer', example: 299 },
  },
  'X-RateLimit-Reset': {
    description: 'Unix seconds of the next wall-clock minute boundary, when the budget refills.',
    schema: { type: 'integer', example: 1_790_000_040 },
  },
  'X-RateLimit-Bucket': {
    description: 'The rate-limit bucket this route spends.',
    schema: { type: 'string', enum: ['reads', 'config-writes', 'inventory-writes', 'booking-actions', 'token'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (429: agrees with X-RateLimit-Reset; 503: the backing service).',
    schema: { type: 'integer', example: 12 },
  },
  'X-Qc-Request-Id': {
    description: 'Identifies this request in our logs.',
    schema: { type: 'string', example: 'req_01JD7Q9X2V3M4N5P6R7S8T9V0W' },
  },
  'X-Qc-Support-Ticket': {
    description: 'On every error response: quote it to support to find the failure.',
    schema: { type: 'string', example: 'tkt_4f9c2a7e1b' },
  },
  'Idempotency-Replayed': {
    description: 'Present (`true`) when this answer is the stored first answer to the same Idempotency-Key and body.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Idempotency-Original-Timestamp': {
    description: 'On a replay: when the first answer was given (ISO 8601).',
    schema: { type: 'string', format: 'date-time' },
  },
  'WWW-Authenticate': {
    description:
      'On 401 and on 403 errors.qc.insufficient_scope (RFC 6750): `Bearer`, with `error="invalid_token"` when a token was sent and refused, `error="insufficient_scope"` on the 403. The token endpoint\'s 401 challenges its client authentication instead (RFC 6749 5.2): `Basic realm="qc-connectivity", charset="UTF-8"`.',
    schema: { type: 'string', example: 'Bearer error="invalid_token"' },
  },
  'Cache-Control': {
    description:
      'On every answer of the token endpoint, tokens and refusals alike (RFC 6749 5.1, 5.2): `no-store`, so no cache keeps a token or a refusal.',
    schema: { type: 'string', enum: ['no-store'] },
  },
  Pragma: {
    description:
      'Beside `Cache-Control: no-store` on the token endpoint, for HTTP/1.0 caches (RFC 6749 5.1): `no-cache`.',
    schema: { type: 'string', enum: ['no-cache'] },
  },
} as const;

export type HeaderName = keyof typeof headers;

/** What each scope grants (the table partners read in the docs' security section). */
const SCOPE_GRANTS: Record<Scope, string> = {
  'inventory.read': 'Read room types, rate plans, availability and rates',
  'inventory.write': 'Push availability, prices and restrictions',
  'properties.manage': 'Property metadata, room types, rate plans, catalogue, configuration; implies inventory.read',
  'bookings.read': 'Bookings, the revision feed and acks',
  'bookings.write': 'Cancel, no-show and room assignment',
  'subscriptions.manage': 'Webhook subscriptions and deliveries',
  'groups.manage': 'Property groups',
  'analytics.read': 'Analytics reports',
};

const schemas = {
  ErrorEnvelope: {
    type: 'object',
    description:
      'Every error: the key in `message` (clients match on it; keys never change meaning) and a sentence in `detail` saying what was wrong and how to fix it. Some keys add fields (for example `errors`, `usages`).',
    required: ['status', 'message', 'detail'],
    properties: {
      status: { type: 'string', enum: ['error'] },
      message: { type: 'string', description: 'The error key, `errors.<...>`.' },
      detail: { type: 'string', description: 'What was wrong and how to fix it, in English. Informative only.' },
    },
  },
  AcceptedContentTypes: {
    type: 'array',
    description: 'On a 415: the media types this endpoint reads, the one to send first.',
    items: { type: 'string' },
  },
  LimitBytes: {
    type: 'integer',
    description: 'On a 413: the largest body this endpoint reads, in bytes.',
  },
  ValidationErrors: {
    type: 'object',
    description: 'Field path to the rules it broke, each `customer.<resource>.messages.<rule>`.',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
} as const;

export type SchemaName = keyof typeof schemas;

/**
 * The document's components. `tokenUrl` is the token endpoint on the server the document describes, so
 * tools that run the client-credentials flow (the docs page, Postman, generated clients) can fetch tokens.
 */
export function openapiComponents(tokenUrl: string) {
  return {
    headers,
    schemas,
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes a retry safe: the same key and byte-identical body within 24 hours replays the first answer (with Idempotency-Replayed); another body is 409 errors.qc.idempotency_conflict. Scope: client, method, path, key.',
        schema: { type: 'string', minLength: 1, maxLength: 128 },
        example: 'push-2026-11-22-0001',
      },
    },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT or qc_ personal token',
        description: 'A personal token (`qc_...`) from the dashboard, or an access token from the token endpoint.',
      },
      oauth2: {
        type: 'oauth2',
        description: 'Client credentials (RFC 6749 4.4); the access token lives 3600 seconds.',
        flows: {
          clientCredentials: {
            tokenUrl,
            scopes: SCOPE_GRANTS,
          },
        },
      },
    },
  };
}
