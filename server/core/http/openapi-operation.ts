import { OptionalKind, type TSchema } from '@sinclair/typebox';
import { type RouteDefinition, successStatuses } from '../routes/route.ts';
import { ApiError } from './api-error.ts';
import { type ErrorKey, errorCatalogue } from './error-catalogue.ts';
import { asSent } from './json-body.ts';
import { type HeaderName, ref } from './openapi-components.ts';
import { validationDetail } from './validation-detail.ts';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The OpenAPI operation of one route definition: its success answers and every error it can answer (the
 * keys it declares plus the pipeline's own), the response headers, the Idempotency-Key parameter on writes
 * and the security it needs. mount-routes.ts hands this to the OpenAPI generator as the route's `detail`,
 * so the document is generated from the definitions and nothing else.
 */
export function operationDetail(definition: RouteDefinition) {
  const idempotent = isIdempotentWrite(definition);
  const successHeaders: HeaderName[] = [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'X-RateLimit-Bucket',
    'X-Qc-Request-Id',
    ...(idempotent ? (['Idempotency-Replayed', 'Idempotency-Original-Timestamp'] as const) : []),
    ...(Object.keys(definition.answerHeaders ?? {}) as HeaderName[]),
  ];
  return {
    summary: definition.summary,
    description: definition.description,
    tags: [...definition.tags],
    operationId: definition.name,
    security:
      definition.auth === 'none' ? [] : [{ bearer: [] }, { oauth2: definition.scope ? [definition.scope] : [] }],
    ...(idempotent ? { parameters: [ref.idempotencyKey] } : {}),
    ...(definition.body && definition.method !== 'GET' ? { requestBody: requestBodyOf(definition) } : {}),
    responses: {
      ...successResponses(definition, successHeaders),
      ...errorResponses(definition, successHeaders),
    },
  };
}

/**
 * The success status and every other one the handler answers (`alsoAnswers`: a booking's reused reference is
 * 200 beside the create's 201), each with the same body schema; the example shows the main answer.
 */
function successResponses(definition: RouteDefinition, headers: readonly HeaderName[]) {
  const [main] = successStatuses(definition);
  return Object.fromEntries(
    successStatuses(definition).map((status) => [
      String(status),
      {
        description: status === main ? definition.summary : definition.alsoAnswers?.[status],
        headers: headerRefs(headers),
        content: {
          'application/json': {
            schema: definition.response,
            ...(status !== main || definition.example === undefined ? {} : { example: definition.example }),
          },
        },
      },
    ]),
  );
}

/** Every error key the operation can answer: its own and the pipeline's, in catalogue order. */
export function errorKeysOf(definition: RouteDefinition): ErrorKey[] {
  const keys = new Set<ErrorKey>(definition.errors ?? []);
  if (definition.auth !== 'none') {
    keys.add('errors.unauthorized');
    if (definition.scope) keys.add('errors.qc.insufficient_scope');
    if (definition.scope) keys.add('errors.qc.endpoint_not_allowed');
  }
  keys.add('errors.qc.rate_limit_exceeded');
  if (isIdempotentWrite(definition)) {
    keys.add('errors.qc.idempotency_conflict');
    keys.add('errors.qc.idempotency_in_flight');
  }
  // A body is bounded before it is read (413, ./read-body.ts) and must be of a type the route reads (415).
  if (definition.body && definition.method !== 'GET') {
    keys.add('errors.qc.payload_too_large');
    keys.add('errors.qc.unsupported_media_type');
  }
  if (definition.params || definition.query || definition.body || isIdempotentWrite(definition))
    keys.add('errors.validation_error');
  // Every path parameter resolves something the token may not see: 404 is the answer for both.
  if (definition.path.includes(':')) keys.add('errors.not_found');
  keys.add('errors.internal_error');
  keys.add('errors.service_unavailable');
  if (WRITES.has(definition.method)) keys.add('errors.qc.write_outcome_unknown');
  const order = Object.keys(errorCatalogue);
  return [...keys].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

/** One response per status, listing its keys (an enum on `message`, each with its sentence and an example). */
function errorResponses(definition: RouteDefinition, successHeaders: readonly HeaderName[]) {
  const byStatus = new Map<number, ErrorKey[]>();
  for (const key of errorKeysOf(definition)) {
    const status = errorCatalogue[key].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), key]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, keys] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: HeaderName[] = [...successHeaders, 'X-Qc-Support-Ticket'];
    if (status === 429 || status === 503) headers.push('Retry-After');
    if (status === 401 || keys.includes('errors.qc.insufficient_scope')) headers.push('WWW-Authenticate');
    const validation = keys.includes('errors.validation_error');
    responses[String(status)] = {
      description: keys.map((key) => `\`${key}\`: ${errorCatalogue[key].detail}`).join('\n\n'),
      headers: headerRefs(headers),
      content: {
        'application/json': {
          schema: {
            allOf: [
              ref.schema('ErrorEnvelope'),
              {
                type: 'object',
                properties: {
                  message: { type: 'string', enum: keys },
                  ...(validation ? { errors: ref.schema('ValidationErrors') } : {}),
                  ...(keys.includes('errors.qc.unsupported_media_type')
                    ? { accepted_content_types: ref.schema('AcceptedContentTypes') }
                    : {}),
                  ...(keys.includes('errors.qc.payload_too_large') ? { limit_bytes: ref.schema('LimitBytes') } : {}),
                  ...definition.errorFields?.[status],
                },
              },
            ],
          },
          examples: Object.fromEntries(keys.map((key) => [key, { summary: key, value: exampleOf(key, definition) }])),
        },
      },
    };
  }
  return responses;
}

/** The answer for `key`, with the fields the route adds to every refusal (`errorExtra`: the token endpoint's `error`). */
function exampleOf(key: ErrorKey, definition: RouteDefinition) {
  const extra = definition.errorExtra?.(new ApiError(key)) ?? {};
  if (key === 'errors.validation_error') {
    const errors = { [exampleField(definition)]: [`customer.${definition.resource}.messages.required`] };
    return { status: 'error', message: key, detail: validationDetail(errors), ...extra, errors };
  }
  return { status: 'error', message: key, detail: errorCatalogue[key].detail, ...extra };
}

/** A field the example can name: the first body field, else the first query or path parameter. */
function exampleField(definition: RouteDefinition): string {
  for (const schema of [definition.body, definition.query, definition.params]) {
    const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
    const first = properties && Object.keys(properties)[0];
    if (first) return first;
  }
  return 'idempotency_key';
}

/**
 * The request body as the pipeline reads it (server/core/http/read-body.ts): JSON unless the route declares
 * its media types. Forms are still read where every body field is text (nothing in v1 stops working;
 * content-type.ts), but JSON is the documented way: a nested push cannot be written as a form.
 *
 * Its schema is the one a body is checked against (./json-body.ts): objects take fields they do not declare
 * (named in `warnings`, never refused), maps keep their rule on keys. It is a copy: Elysia writes
 * `additionalProperties: false` into a route's body schema when it compiles the route's validator, at the
 * route's first request, so a document generated after some requests refused fields that work on those routes.
 */
function requestBodyOf(definition: RouteDefinition) {
  const body = definition.body as TSchema;
  const schema = asSent(body);
  const types = definition.contentTypes ?? ['application/json'];
  return {
    required: body[OptionalKind] !== 'Optional',
    content: Object.fromEntries(
      types.map((type) => [
        type,
        { schema, ...(definition.requestExample === undefined ? {} : { example: definition.requestExample }) },
      ]),
    ),
  };
}

function headerRefs(names: readonly HeaderName[]) {
  return Object.fromEntries(names.map((name) => [name, ref.header(name)]));
}

/** The pipeline claims Idempotency-Keys of authenticated writes (the token endpoint has no client to scope them). */
function isIdempotentWrite(definition: RouteDefinition): boolean {
  return WRITES.has(definition.method) && definition.auth !== 'none';
}
