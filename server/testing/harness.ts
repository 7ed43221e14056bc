import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import { buildApp } from '../app.ts';
import { createDeps } from '../boot.ts';
import { ManualClock } from '../core/clock.ts';
import { parseConfig } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import { openPglite } from '../core/db/pglite.ts';
import { openPostgres } from '../core/db/postgres.ts';
import type { Deps } from '../core/deps.ts';
import { createLog } from '../core/log.ts';
import { closeRedis, redisProbe } from '../core/redis.ts';
import type { ObjectStorage } from '../core/storage/object-storage.ts';
import type { Demo } from '../demo/demo.ts';
import { createLegacyCutover, type LegacyCutoverParts } from '../legacy-cutover/legacy-cutover.ts';
import { startWebhooks, type WebhookOptions, type Webhooks } from '../webhooks/dispatcher.ts';

/**
 * The shared test harness: a real app on real PostgreSQL (DATABASE_URL, set by `npm test`), or on embedded
 * PGlite for the smoke suite (QC_TEST_EMBEDDED=1). Requests go through `app.handle`, no port needed.
 * Isolation comes from fresh fixtures: every `demo()` is a new customer, so tests never share rows.
 */
export const OPERATOR_TOKEN = 'test-operator-token-0123456789';
/** The key the test database's signing keys are sealed under: test apps and server processes share it. */
export const TEST_KEY_ENCRYPTION_KEY = 'dGVzdC1rZXktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXM';

/**
 * The suite runs on the embedded default (`npm run test:embedded`, and the smoke stage of `npm test`). The
 * embedded engine is one connection: one transaction at a time, so a test that holds a transaction (a row
 * lock, a busy actor turn) while it makes another statement wait on it cannot run there; it is skipped with
 * `it.skipIf(EMBEDDED)` and a comment that says which transaction it holds.
 */
export const EMBEDDED = process.env.QC_TEST_EMBEDDED === '1';

let sharedDb: Promise<Db> | undefined;

function testDb(): Promise<Db> {
  sharedDb ??= (async () => {
    if (EMBEDDED) return openPglite(undefined);
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: run the suite with `npm test` (it prepares a test database)');
    // Generous: the suite shares two cores with other work; the outage tests set their own bound.
    // DATABASE_SESSION_URL: DATABASE_URL is a transaction pooler (npm run test:pooler).
    return openPostgres(url, { max: 8, timeoutMs: 10_000, sessionUrl: process.env.DATABASE_SESSION_URL });
  })();
  return sharedDb;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** A raw body string sent as-is (with content-type application/json unless headers say otherwise). */
  raw?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  deps: Deps;
  clock: ManualClock;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  /** Operator API call with the operator token. */
  ops<T = any>(method: string, path: string, body?: unknown): Promise<Reply<T>>;
  /** A fresh demo customer (POST /ops/demo). */
  demo(): Promise<Demo>;
  /** An access token for an OAuth client through POST /v1/qc/oauth/token. */
  oauthToken(clientId: string, secret: string, scope?: string): Promise<string>;
  /** Creates an OAuth client through the operator API and returns it with a fresh access token. */
  client(input: ClientInput): Promise<{ client_id: string; client_secret: string; token: string }>;
  /** A dashboard session token for a customer (POST /ops/customers/{id}/dashboard-token). */
  dashboardSession(customerId: number): Promise<string>;
  /** The legacy cutover: `cutover.comparisons.idle()` waits for queued shadow comparisons. */
  cutover: LegacyCutoverParts;
  /** The webhook delivery machinery, when started with `webhooks` (stopped by close()). */
  webhooks?: Webhooks;
  /** Closes what this app opened beside the shared database (its Redis connection, its webhook machinery). */
  close(): Promise<void>;
}

export interface ClientInput {
  customer_id: number;
  scopes: string[];
  property_ids?: string[];
  account_scoped?: boolean;
  endpoint_scopes?: string[];
  tier?: string;
}

export interface TestAppOptions {
  clock?: ManualClock;
  /** Environment overrides; an empty string unsets a variable (`{ REDIS_URL: '' }`: in-process limiter and store). */
  env?: Record<string, string>;
  /**
   * 'observe' (default): budgets are counted and shown in X-RateLimit-* headers but never answer 429, so
   * feature tests may call more often than a partner may. 'enforce': the production behaviour.
   */
  rateLimits?: 'observe' | 'enforce';
  /** How long a request waits for a running request with the same Idempotency-Key (default 30 s). */
  idempotencyWaitMs?: number;
  /**
   * Starts the webhook relay and delivery queue (BullMQ when REDIS_URL is set, in-process otherwise) with
   * these options; BullMQ keys get a prefix of their own per test app. `autorun: false` starts nothing in
   * the background: the test drives it with `webhooks.runDue()` (with a ManualClock).
   */
  webhooks?: WebhookOptions;
  /** Another file store than the configured one (a storage that refuses, for the failure path). */
  storage?: ObjectStorage;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = parseConfig({
    QC_LOG_LEVEL: process.env.QC_TEST_LOG ?? 'silent',
    QC_OPERATOR_TOKEN: OPERATOR_TOKEN,
    QC_KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY,
    QC_WEBHOOK_ALLOW_PRIVATE: '1',
    QC_DEMO_ON_EMPTY: '0',
    DATABASE_URL: EMBEDDED ? undefined : process.env.DATABASE_URL,
    DATABASE_SESSION_URL: EMBEDDED ? undefined : process.env.DATABASE_SESSION_URL,
    REDIS_URL: EMBEDDED ? undefined : process.env.REDIS_URL,
    ...options.env,
  });
  const clock = options.clock ?? new ManualClock(new Date());
  const deps = await createDeps(config, {
    db: await testDb(),
    clock,
    log: createLog(config.logLevel),
    // Every test app counts in its own Redis keys: no test spends another's budget or sees its keys.
    redisKeyPrefix: `qc-test:${crypto.randomUUID()}:`,
    enforceRateLimits: options.rateLimits === 'enforce',
    idempotencyWaitMs: options.idempotencyWaitMs,
    storage: options.storage,
  });
  const cutover = createLegacyCutover(deps);
  const app = buildApp(deps, {
    operatorToken: OPERATOR_TOKEN,
    probes: deps.redis ? [redisProbe(deps.redis)] : [],
    cutover,
  });
  const webhooks = options.webhooks
    ? await startWebhooks(deps, { prefix: `qc-test-${crypto.randomUUID()}`, ...options.webhooks })
    : undefined;

  const request = async <T>(method: string, path: string, o: RequestOptions = {}): Promise<Reply<T>> => {
    const url = new URL(path, 'http://localhost');
    for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.form) {
      body = new URLSearchParams(o.form).toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (o.raw !== undefined) {
      body = o.raw;
      headers['content-type'] ??= 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.handle(new Request(url.toString(), { method, headers, body }));
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  const ops = <T>(method: string, path: string, body?: unknown) =>
    request<T>(method, path, { token: OPERATOR_TOKEN, body });

  const oauthToken = async (clientId: string, secret: string, scope?: string) => {
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    };
    if (scope) form.scope = scope;
    const res = await request<{ access_token: string }>('POST', '/v1/qc/oauth/token', { form });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
    return res.body.access_token;
  };

  return {
    app,
    deps,
    clock,
    request,
    ops,
    oauthToken,
    demo: async () => {
      const res = await ops<{ data: Demo }>('POST', '/ops/demo');
      if (res.status !== 200) throw new Error(`demo failed: ${res.status} ${res.text}`);
      return res.body.data;
    },
    client: async (input) => {
      const res = await ops<{ data: { client_id: string; client_secret: string } }>('POST', '/ops/clients', input);
      if (res.status !== 200) throw new Error(`client failed: ${res.status} ${res.text}`);
      const { client_id, client_secret } = res.body.data;
      return { client_id, client_secret, token: await oauthToken(client_id, client_secret) };
    },
    dashboardSession: async (customerId) => {
      const res = await ops<{ data: { token: string } }>('POST', `/ops/customers/${customerId}/dashboard-token`);
      if (res.status !== 200) throw new Error(`dashboard token failed: ${res.status} ${res.text}`);
      return res.body.data.token;
    },
    webhooks,
    cutover,
    close: async () => {
      await cutover.comparisons.stop();
      await webhooks?.stop();
      if (deps.redis) await closeRedis(deps.redis);
    },
  };
}

/**
 * A value of one test file (or of one describe block, when called inside it) that the file names while it
 * loads but that only exists between beforeAll and afterAll: `make` runs in beforeAll, `dispose` in afterAll.
 * The object returned forwards every read and write to the value made, so hooks registered after this call
 * and the tests use it as they would the value itself; touching it while the file is being loaded throws.
 * Members are read from the value, so its methods must not depend on `this` being the value itself.
 */
export function perFile<T extends object>(make: () => Promise<T>, dispose?: (value: T) => unknown): T {
  return hookedValue(beforeAll, afterAll, make, dispose);
}

/** Like perFile, made afresh before each test and disposed after it. */
export function perTest<T extends object>(make: () => Promise<T>, dispose?: (value: T) => unknown): T {
  return hookedValue(beforeEach, afterEach, make, dispose);
}

function hookedValue<T extends object>(
  before: (hook: () => Promise<void>) => void,
  after: (hook: () => Promise<void>) => void,
  make: () => Promise<T>,
  dispose?: (value: T) => unknown,
): T {
  let made: T | undefined;
  before(async () => {
    made = await make();
  });
  after(async () => {
    if (made && dispose) await dispose(made);
  });
  const current = (): T => {
    if (!made) throw new Error('this test value is made in a before hook: use it inside hooks and tests');
    return made;
  };
  return new Proxy({} as T, {
    get: (_, member) => Reflect.get(current(), member),
    set: (_, member, value) => Reflect.set(current(), member, value),
    has: (_, member) => Reflect.has(current(), member),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, member) => Reflect.getOwnPropertyDescriptor(current(), member),
  });
}

/** The test app of one test file (or describe block): started in beforeAll, closed in afterAll. */
export function testAppPerFile(options?: TestAppOptions): TestApp {
  return perFile(
    () => startTestApp(options),
    (t) => t.close(),
  );
}

/** A test app that also listens on a loopback port: for clients that go through fetch and HTTP like a partner's. */
export async function startServedTestApp(
  options?: TestAppOptions,
): Promise<{ t: TestApp; baseUrl: string; stop(): Promise<void> }> {
  const t = await startTestApp(options);
  t.app.listen({ port: 0, hostname: '127.0.0.1' });
  return {
    t,
    baseUrl: `http://127.0.0.1:${t.app.server?.port}`,
    async stop() {
      await t.app.stop();
      await t.close();
    },
  };
}
