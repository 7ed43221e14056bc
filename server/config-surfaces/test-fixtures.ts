import type { Demo } from '../demo/demo.ts';
import { perFile, type Reply, startTestApp, type TestApp } from '../testing/harness.ts';

/**
 * The fixture every configuration-surface test starts from: an app, a demo customer (its live property
 * carries rate plans and therefore placeholder policies) and a second customer for cross-customer checks.
 */
export interface ConfigTest {
  t: TestApp;
  demo: Demo;
  other: Demo;
  /** External id of the demo's live property. */
  property: string;
  /** The demo's personal token: every scope, every property of the customer. */
  token: string;
}

/** The ConfigTest of one test file (or describe block): made in beforeAll, its app closed in afterAll. */
export function configTest(): ConfigTest {
  return perFile(startConfigTest, (c) => c.t.close());
}

async function startConfigTest(): Promise<ConfigTest> {
  const t = await startTestApp();
  const demo = await t.demo();
  const other = await t.demo();
  return { t, demo, other, property: demo.properties[0]?.id as string, token: demo.personal_token };
}

/** A call with the demo's token, under `/v1/qc`. */
export function call<T = any>(
  c: ConfigTest,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  return c.t.request<T>(method, `/v1/qc${path}`, { token: c.token, body, headers });
}

/** Asserts a 422 validation answer and returns its `errors` map. */
export function validationErrors(res: Reply): Record<string, string[]> {
  if (res.status !== 422 || res.body?.message !== 'errors.validation_error')
    throw new Error(`expected 422 errors.validation_error, got ${res.status} ${res.text}`);
  return res.body.errors;
}

/** The outbox events of a type recorded for the demo customer, oldest first. */
export async function eventsOf(c: ConfigTest, type: string): Promise<Record<string, unknown>[]> {
  const rows = await c.t.deps.db.sql<{ data: Record<string, unknown> }>`
    select data from outbox_events where customer_id = ${c.demo.customer_id} and type = ${type} order by id`;
  return rows.map((r) => r.data);
}

/** A promotion as a partner creates one: the body the rule tests of PATCH create their promotion with. */
export const EARLY_BOOKER_PROMOTION = {
  name: 'Early',
  type: 'early_booker',
  discount_type: 'percent',
  discount_value: 10,
  days_before_arrival_min: 30,
} as const;
