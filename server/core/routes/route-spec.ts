import type { Scope } from '../auth/scopes.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Rate-limit buckets (spec 8.1). `booking-actions` and `token` are our names for the buckets the spec
 * lists without a name.
 */
export type Bucket = 'reads' | 'config-writes' | 'inventory-writes' | 'booking-actions' | 'token';

/** What the pipeline, GET /permissions, endpoint_scopes and the auth walk know of a route. */
export interface RouteSpec {
  /** Route name `qc.<resource>.<action>`, used by endpoint_scopes and GET /permissions. */
  name: string;
  method: Method;
  /** Elysia path relative to /v1/qc (`:param` segments). */
  path: string;
  /** Scope the token must hold; null means any valid token. */
  scope: Scope | null;
  bucket: Bucket;
  /** Resource name used in validation messages: customer.<resource>.messages.<rule>. */
  resource: string;
  /** Largest request body accepted (413 beyond); default by bucket (server/core/http/read-body.ts). */
  maxBodyBytes?: number;
  /**
   * 'text': the handler gets the raw body as a string (a route that parses it itself, e.g. the inbound
   * webhook); the pipeline still bounds its size and, for a JSON media type, its depth.
   */
  parse?: 'text';
  /**
   * 'none' for the few routes that take no bearer (token endpoint, JWKS, changelog). README.md and the document's
   * description list them; scripts/readme-claims.rule.test.ts fails until a new one is listed there.
   */
  auth?: 'none';
  /**
   * 'untouched': a write that changes no row a principal is decided by (api_clients; a property's status, group
   * or customer; a group's pause: what migration 0850 notifies on), so its answer does not wait until this
   * process's principal cache has seen its changes (principalsSynced, server/core/auth/principal-cache.ts): it
   * has none. Only the calendar writes (bucket inventory-writes) declare it: their SQL lives in actors/ and
   * writes the calendar tables and the outbox. The wait is a heartbeat through PostgreSQL, which under another
   * customer's storm of pushes took 2-4 ms of a 15 ms push (issue 27, docs/performance.md "Fairness").
   */
  principals?: 'untouched';
  /**
   * 'lenient': the handler reads its query by the lenient rule (server/core/http/lenient-query.ts: a malformed value
   * is dropped, never a 422, spec 4.5), so the pipeline does not refuse a NUL or a lone surrogate in it either.
   */
  queryReading?: 'lenient';
  summary: string;
}

export function uriOf(spec: RouteSpec): string {
  return `/v1/qc${spec.path.replace(/:(\w+)/g, '{$1}')}`;
}
