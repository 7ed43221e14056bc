import type { Static, TSchema } from '@sinclair/typebox';
import type { Deps } from '../deps.ts';
import type { Method } from './route-spec.ts';

type StaticOf<S> = S extends TSchema ? Static<S> : undefined;

/**
 * Who may call an operator route: the service operator (`Authorization: Bearer <QC_OPERATOR_TOKEN>`, under
 * /ops) or a customer's dashboard session (a qc-dashboard JWT, under /api/v1/pem-systems/qc).
 */
export type OperatorSurface = 'ops' | 'dashboard';

export const OPERATOR_PREFIX: Record<OperatorSurface, string> = {
  ops: '/ops',
  dashboard: '/api/v1/pem-systems/qc',
};

/** What an operator handler receives: the validated input, never the framework context. */
export interface OperatorInput<P, Q, B> {
  deps: Deps;
  params: P;
  query: Q;
  body: B;
  /** The customer a dashboard session acts for; 0 on the operator's own routes (it acts for everyone). */
  customerId: number;
  /** The raw request, for the few operations that read a header (Idempotency-Key). */
  request: Request;
}

/**
 * One operation of the operator API (outside the partner spec), declared like a partner route: its surface,
 * method, path (relative to the surface's prefix), schemas and handler in one file. The operator route table
 * (server/operator-route-table.ts) lists them; the app mounts that list behind each surface's guard, and the
 * operator auth walk and fuzz walk read it.
 */
export interface OperatorRouteDefinition<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
> {
  /** `ops.<resource>.<action>` or `dashboard.<resource>.<action>`. */
  name: string;
  surface: OperatorSurface;
  method: Method;
  path: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The operation handles Idempotency-Key itself (the booking intake keeps it in the database); otherwise a
   * POST with the header is deduplicated by the mount (server/core/http/operator-idempotency.ts).
   */
  ownIdempotencyKey?: true;
  /** The answer carries a credential shown once: a replay under the same Idempotency-Key withholds it. */
  shownOnce?: ShownOnce;
  /** The envelope body of the answer (`ok(...)`), sent with 200, or an Answer with its own status and headers. */
  handle(input: OperatorInput<StaticOf<P>, StaticOf<Q>, StaticOf<B>>): unknown | Promise<unknown>;
}

/**
 * Where a success answer holds a credential shown once, and how to get a new one. The idempotency store keeps the
 * answer with these fields null (server/core/http/operator-idempotency.ts): it never holds the secret.
 */
export interface ShownOnce {
  /** Dot paths under `data`: `token`, `client.client_secret`. */
  fields: readonly string[];
  /** The end of the sentence "To get a new one, ...", naming the route that does it. */
  renewal: string;
}

/** Identity at run time; it exists so the handler's input is typed from the schemas beside it. */
export function defineOperatorRoute<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
>(definition: OperatorRouteDefinition<P, Q, B>): OperatorRouteDefinition {
  return definition as OperatorRouteDefinition;
}
