import type { Static, TSchema } from '@sinclair/typebox';
import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import type { ApiError } from '../http/api-error.ts';
import type { ErrorKey } from '../http/error-catalogue.ts';
import type { HeaderName } from '../http/openapi-components.ts';
import type { PathRecordResolver } from './path-record.ts';
import type { RouteSpec } from './route-spec.ts';

export type { Bucket, Method, RouteSpec } from './route-spec.ts';
export { uriOf } from './route-spec.ts';

export type SuccessStatus = 200 | 201 | 202 | 204;

type StaticOf<S> = S extends TSchema ? Static<S> : undefined;

/** What a handler receives: the validated input and the dependencies, never the framework context. */
export interface RouteInput<P, Q, B> {
  deps: Deps;
  /** The authenticated caller. Undefined only on routes with `auth: 'none'`. */
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  /** The raw request, for the few routes that read headers themselves (token endpoint). */
  request: Request;
}

/**
 * A handler answers with the envelope body (sent with the definition's `status`) or, when the status depends
 * on the outcome, with an Answer.
 */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * One modern operation: its place in the route table (name, scope, bucket), its schemas and its handler,
 * kept together in one file per operation (server/<feature>/<operation>.ts). server/route-table.ts lists them
 * all; the app mounts that list, and GET /permissions, endpoint_scopes and the auth walk read it.
 */
export interface RouteDefinition<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R = unknown,
> extends RouteSpec {
  params?: P;
  query?: Q;
  body?: B;
  /** Request body media types the route parses, when not JSON alone (the token endpoint takes a form too). */
  contentTypes?: readonly string[];
  /** The success status (default 200). */
  status?: SuccessStatus;
  /**
   * Other success statuses the handler answers (with an Answer), each with what it means to the caller; the body
   * is the same `response`. The document lists each, and the test suite refuses an answer with a success status
   * the definition does not declare (server/core/http/mount-routes.ts).
   */
  alsoAnswers?: Partial<Record<SuccessStatus, string>>;
  /** Schema of the success body (the whole envelope). Checked against every answer in the test suite. */
  response: TSchema;
  /** A success body shown in the OpenAPI document (the lint checks it against `response`). */
  example?: unknown;
  /**
   * A request body shown in the OpenAPI document, where the one the docs UI makes up from the schema would
   * mislead (every optional field at once, a map's key pattern as a literal key).
   */
  requestExample?: unknown;
  /** Error keys this operation can answer beyond the pipeline's own (401, 403, 429, 409 idempotency, 422). */
  errors?: readonly ErrorKey[];
  /**
   * Fields this operation's error answers add beside the envelope, by status (the token endpoint's RFC 6749
   * `error`), so the document and the typed client know them.
   */
  errorFields?: Partial<Record<number, Record<string, TSchema>>>;
  /**
   * The fields of `errorFields` an error answer carries, decided from the error the pipeline rendered, whichever
   * step refused it (body size, media type, schema, rate limit, an outage): the token endpoint's RFC 6749 `error`
   * (server/oauth/token-errors.ts). Fields the error itself carries win.
   */
  errorExtra?: (error: ApiError) => Record<string, unknown>;
  /**
   * Headers every answer of this route carries, success and error alike, with their fixed value: the token
   * endpoint's `Cache-Control: no-store` (RFC 6749 5.1, 5.2). The pipeline sends them and the document lists them.
   */
  answerHeaders?: Partial<Record<HeaderName, string>>;
  /** OpenAPI tag(s) and a longer description for what the spec leaves open. */
  tags: readonly string[];
  description?: string;
  /**
   * The record the path names when it is not a property (a booking button; under /properties/:property, a policy,
   * found on the path's property: ./in-property.ts recordInProperty): the pipeline resolves it for the caller
   * before it reads the body, after the path's property, so one the caller may not see is a 404 whatever the body
   * (./path-record.ts), and `handle` gets that row as its second argument (inProperty: its third).
   */
  pathRecord?: PathRecordResolver<R>;
  handle(input: RouteInput<StaticOf<P>, StaticOf<Q>, StaticOf<B>>, record: R): unknown | Promise<unknown>;
}

/** Identity at run time; it exists so the handler's input is typed from the schemas beside it. */
export function defineRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R = undefined,
>(definition: RouteDefinition<P, Q, B, R>): RouteDefinition {
  return definition as unknown as RouteDefinition;
}

/** Every success status a definition declares: its `status` first, then `alsoAnswers` in ascending order. */
export function successStatuses(definition: RouteDefinition): SuccessStatus[] {
  const others = Object.keys(definition.alsoAnswers ?? {}).map(Number) as SuccessStatus[];
  return [definition.status ?? 200, ...others.sort((a, b) => a - b)];
}
