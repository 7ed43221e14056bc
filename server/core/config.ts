import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Static, Type as T, type TSchema } from '@sinclair/typebox';
import { Value, type ValueError } from '@sinclair/typebox/value';
import { parseTrustedProxies, type TrustedProxies } from './http/client-address.ts';

/** This checkout's `node_modules/.cache/qc-pglite-template`: it goes with node_modules, as a cache should. */
const DEFAULT_PGLITE_TEMPLATE_DIR = join(
  fileURLToPath(new URL('../..', import.meta.url)),
  'node_modules',
  '.cache',
  'qc-pglite-template',
);

/**
 * Configuration, parsed once at boot from the environment. Every variable is read here and nowhere else;
 * a wrong value stops start-up with a message naming the variable.
 */
const EnvSchema = T.Object({
  PORT: T.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: T.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: T.Optional(T.String({ pattern: '^postgres(ql)?://' })),
  /**
   * Set when DATABASE_URL is a transaction pooler (PgBouncer, pool_mode = transaction): a direct (or
   * session-pooled) URL of the same database for what needs a session: LISTEN (outbox, auth cache) and
   * migrations. Through the pooler, statements then use no server-side prepared statements.
   */
  DATABASE_SESSION_URL: T.Optional(T.String({ pattern: '^postgres(ql)?://' })),
  /**
   * A streaming replica of the same database for reads that tolerate lag (availability, rates, the booking
   * list); unset: every read on the primary. Past QC_REPLICA_MAX_LAG_MS of replay lag, or down: the primary.
   */
  DATABASE_REPLICA_URL: T.Optional(T.String({ pattern: '^postgres(ql)?://' })),
  QC_REPLICA_MAX_LAG_MS: T.Integer({ minimum: 100, maximum: 600_000, default: 5000 }),
  /** Liveness: /healthz fails once the pool has failed this long although the database answers (see health). */
  QC_DB_STUCK_LIVENESS_MS: T.Integer({ minimum: 1000, maximum: 3_600_000, default: 30_000 }),
  /**
   * One Redis (`redis://`, `rediss://` for TLS) or a Redis Cluster: `redis+cluster://` (`rediss+cluster://`)
   * followed by one or more seed nodes, `host:port` separated by commas, e.g.
   * `redis+cluster://:password@10.0.0.1:6379,10.0.0.2:6379`; the client discovers the rest.
   */
  REDIS_URL: T.Optional(T.String({ pattern: '^rediss?(\\+cluster)?://' })),
  QC_OPERATOR_TOKEN: T.Optional(T.String({ minLength: 16 })),
  QC_DATA_DIR: T.String({ minLength: 1, default: '.data' }),
  /**
   * Where the embedded database keeps the snapshot a new, empty data dir starts from (server/core/db/
   * pglite-template.ts); unset: node_modules/.cache/qc-pglite-template; `off`: every empty data dir runs initdb.
   */
  QC_PGLITE_TEMPLATE_DIR: T.Optional(T.String({ minLength: 1 })),
  QC_PUBLIC_URL: T.Optional(T.String({ pattern: '^https?://' })),
  QC_LOG_LEVEL: T.Union([T.Literal('info'), T.Literal('warn'), T.Literal('error'), T.Literal('silent')], {
    default: 'info',
  }),
  QC_DEMO_ON_EMPTY: T.Union([T.Literal('1'), T.Literal('0')], { default: '1' }),
  /**
   * On SIGTERM, how long the process keeps serving with /readyz answering 503 before it stops listening: set
   * it behind a balancer to at least the time the balancer takes to mark a process down (HAProxy as in
   * docs/operations.md: 2 s; 3000 leaves a margin). 0: the listener closes at once.
   */
  QC_DRAIN_MS: T.Integer({ minimum: 0, maximum: 600_000, default: 0 }),
  /**
   * The balancers and proxies in front of the service, addresses or CIDRs separated by commas or spaces
   * (`10.0.0.0/8, 127.0.0.1`). Only a request whose connection comes from one of them has its client address
   * read from QC_TRUSTED_PROXY_HEADER (the right-most hop that is not a trusted proxy); unset: the socket peer is
   * the client and forwarding headers are ignored (server/core/http/client-address.ts).
   */
  QC_TRUSTED_PROXIES: T.Optional(T.String()),
  /** The forwarding header the trusted proxies write: HAProxy's `option forwardfor` and nginx write X-Forwarded-For. */
  QC_TRUSTED_PROXY_HEADER: T.Union([T.Literal('x-forwarded-for'), T.Literal('forwarded')], {
    default: 'x-forwarded-for',
  }),
  /** '1': several processes may listen on one PORT (SO_REUSEPORT); otherwise a busy port stops start-up. */
  QC_REUSE_PORT: T.Union([T.Literal('1'), T.Literal('0')], { default: '0' }),
  /** Seals the JWT signing keys in the database (32 bytes, base64url); unset: generated into the data dir. */
  QC_KEY_ENCRYPTION_KEY: T.Optional(T.String({ pattern: '^[A-Za-z0-9_-]{43}$' })),
  /** Days an incident row is kept (GET /ops/incidents/{ticket}); older rows go in the retention pass (QC_RETENTION_EVERY_MINUTES). */
  QC_INCIDENT_RETENTION_DAYS: T.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  /**
   * Retention (server/retention, docs/operations.md "Retention"): days each growing table keeps its rows.
   * Past calendar days: a stay month's partitions go once the whole month is older than this.
   */
  QC_RETENTION_CALENDAR_DAYS: T.Integer({ minimum: 2, maximum: 3650, default: 90 }),
  /** Outbox events once relayed (their deliveries, and redeliveries of those, must have gone first). */
  QC_RETENTION_OUTBOX_DAYS: T.Integer({ minimum: 1, maximum: 3650, default: 180 }),
  /** Finished deliveries (delivered or dead) and every delivery attempt: redelivery is offered 90 days (spec 6.2). */
  QC_RETENTION_DELIVERY_DAYS: T.Integer({ minimum: 90, maximum: 3650, default: 90 }),
  /** Feed acks behind the consumer's watermark, counted from the ack. */
  QC_RETENTION_ACK_DAYS: T.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  /** Legacy revisions of bookings whose stay ended this long ago (each booking keeps its latest revision). */
  QC_RETENTION_LEGACY_REVISION_DAYS: T.Integer({ minimum: 1, maximum: 3650, default: 90 }),
  /** Legacy shadow comparison samples. */
  QC_RETENTION_SHADOW_SAMPLE_DAYS: T.Integer({ minimum: 1, maximum: 3650, default: 90 }),
  /**
   * Hours a create's Idempotency-Key is kept with its answer (idempotent_creates): at least the key's 24 hours
   * (spec 8.3), within which a retry answers the create it made.
   */
  QC_RETENTION_IDEMPOTENCY_HOURS: T.Integer({ minimum: 24, maximum: 8760, default: 24 }),
  /** Minutes between two retention passes in each process (a pass is idempotent; 0: never, run it by hand). */
  QC_RETENTION_EVERY_MINUTES: T.Integer({ minimum: 0, maximum: 10_080, default: 60 }),
  /** Bound on one database statement (waiting for a connection included) and on connecting: past it, 503. */
  QC_DB_TIMEOUT_MS: T.Integer({ minimum: 100, maximum: 600_000, default: 2000 }),
  /** Calendar write turns one customer runs at once per process; the rest queue (actors/property-actors.ts). */
  QC_ACTOR_TURNS_PER_CUSTOMER: T.Integer({ minimum: 1, maximum: 1000, default: 3 }),
  /**
   * Longest a statement of a backlogged customer's turn (turns waiting for a slot) waits while another customer's
   * turn without a backlog runs (actors/property-actors.ts); 0: never waits.
   */
  QC_ACTOR_YIELD_MS: T.Integer({ minimum: 0, maximum: 100, default: 5 }),
  /** Lets webhook destinations resolve to loopback/private addresses (local development and tests only). */
  QC_WEBHOOK_ALLOW_PRIVATE: T.Union([T.Literal('1'), T.Literal('0')], { default: '0' }),
  /** Gallery storage: an S3-compatible bucket when set (Bun's S3 client), `<data dir>/storage` otherwise. */
  QC_STORAGE_S3_BUCKET: T.Optional(T.String({ minLength: 1 })),
  QC_STORAGE_S3_ENDPOINT: T.Optional(T.String({ pattern: '^https?://' })),
  QC_STORAGE_S3_REGION: T.Optional(T.String({ minLength: 1 })),
  QC_STORAGE_S3_ACCESS_KEY_ID: T.Optional(T.String({ minLength: 1 })),
  QC_STORAGE_S3_SECRET_ACCESS_KEY: T.Optional(T.String({ minLength: 1 })),
  /** The analytics upstream; unset: the built-in provider computes the reports from the service's data. */
  QC_ANALYTICS_URL: T.Optional(T.String({ pattern: '^https?://' })),
  QC_ANALYTICS_TIMEOUT_MS: T.Integer({ minimum: 1, maximum: 60000, default: 5000 }),
  /** Where review replies are sent to the channels (POST {url}/{channel}/reviews/{channel_review_id}/reply). */
  QC_CHANNEL_GATEWAY_URL: T.Optional(T.String({ pattern: '^https?://' })),
  /**
   * The legacy PHP service's base URL, for legacy keys in cutover mode `shadow` without an upstream of their
   * own. Set: keys created without a mode start in shadow; unset (and no key has one): they start live.
   */
  QC_LEGACY_UPSTREAM_URL: T.Optional(T.String({ pattern: '^https?://' })),
  /**
   * '1': QC_LEGACY_UPSTREAM_URL may resolve to private and loopback addresses (the operator's override a key's
   * own URL gets with `allow_private_upstream`); never link-local (cloud metadata). Checked before every forward.
   */
  QC_LEGACY_UPSTREAM_ALLOW_PRIVATE: T.Union([T.Literal('1'), T.Literal('0')], { default: '0' }),
  /** Past it a shadowed legacy request answers 504 (the legacy service did not answer in time). */
  QC_LEGACY_UPSTREAM_TIMEOUT_MS: T.Integer({ minimum: 1, maximum: 240_000, default: 30_000 }),
  /** Shadow comparisons waiting off the request path; beyond it they are dropped and counted. */
  QC_LEGACY_SHADOW_QUEUE: T.Integer({ minimum: 1, maximum: 1_000_000, default: 1000 }),
  /** Differing exchanges kept per credential and UTC day, both bodies (guest data masked). */
  QC_LEGACY_SHADOW_SAMPLES: T.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  /**
   * The zero streak (days) a shadow legacy key needs before `PUT .../cutover {"mode":"live"}` flips it without
   * `"force": true`. Default: spec 9.4's shutdown rule (SHUTDOWN_STREAK_DAYS, server/legacy-cutover/zero-streak.ts),
   * since a live key's streak stops growing and one flipped short of it holds back the sunset. 0: no guard.
   */
  QC_LEGACY_CUTOVER_STREAK_DAYS: T.Integer({ minimum: 0, maximum: 3650, default: 90 }),
  /** Ignore rules for shadow comparisons (harness format, `METHOD PATH FIELD` a line). */
  QC_LEGACY_SHADOW_IGNORE_FILE: T.Optional(T.String({ minLength: 1 })),
  /** The `Link: <...>; rel="sunset"` target on legacy answers once a sunset is set; none without it. */
  QC_LEGACY_MIGRATION_GUIDE_URL: T.Optional(T.String({ pattern: '^https?://' })),
});

export type Env = Static<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** Where rate limits, idempotency records and the BullMQ queue live; undefined: in this process. */
  redis: RedisTarget | undefined;
  databaseSessionUrl: string | undefined;
  databaseReplicaUrl: string | undefined;
  replicaMaxLagMs: number;
  dbStuckLivenessMs: number;
  operatorToken: string | undefined;
  dataDir: string;
  /** Folder of the embedded database's template snapshot; undefined: none is used or kept. */
  pgliteTemplateDir: string | undefined;
  publicUrl: string | undefined;
  logLevel: Env['QC_LOG_LEVEL'];
  demoOnEmpty: boolean;
  webhookAllowPrivate: boolean;
  /** S3-compatible gallery storage; undefined: the filesystem under the data directory. */
  s3:
    | { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string }
    | undefined;
  analyticsUrl: string | undefined;
  analyticsTimeoutMs: number;
  channelGatewayUrl: string | undefined;
  dbTimeoutMs: number;
  actorTurnsPerCustomer: number;
  actorYieldMs: number;
  reusePort: boolean;
  /** Whose forwarding header names the client (QC_TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
  /** SIGTERM: serve this long with /readyz 503 before closing the listener (QC_DRAIN_MS). */
  drainMs: number;
  legacyCutover: {
    upstreamUrl: string | undefined;
    /** QC_LEGACY_UPSTREAM_URL may be private (QC_LEGACY_UPSTREAM_ALLOW_PRIVATE=1). */
    upstreamAllowPrivate: boolean;
    upstreamTimeoutMs: number;
    queueCapacity: number;
    samplesPerDay: number;
    /** Zero-streak days a shadow key needs to be flipped live unforced (QC_LEGACY_CUTOVER_STREAK_DAYS). */
    liveStreakDays: number;
    ignoreFile: string | undefined;
    migrationGuideUrl: string | undefined;
  };
  incidentRetentionDays: number;
  /**
   * Seconds a connection may stay silent before the server closes it (Bun's idleTimeout, at most 255): past the
   * legacy upstream deadline with room to answer, so a hung upstream is always a 504, never an empty reply.
   */
  idleTimeoutSeconds: number;
  retention: RetentionSettings;
  keyEncryptionKey: string | undefined;
}

/** Days kept per growing table (the incidents' own setting is incidentRetentionDays). */
export interface RetentionSettings {
  calendarDays: number;
  outboxDays: number;
  deliveryDays: number;
  ackDays: number;
  legacyRevisionDays: number;
  shadowSampleDays: number;
  /** Hours, not days: the Idempotency-Key window is 24 hours. */
  idempotencyHours: number;
  everyMinutes: number;
}

export class ConfigError extends Error {}

/** A parsed REDIS_URL: one server, or the seed nodes of a cluster (which has only database 0). */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'cluster';
      nodes: { host: string; port: number }[];
      username: string | undefined;
      password: string | undefined;
      tls: boolean;
    };

export function parseRedisUrl(url: string): RedisTarget {
  const cluster = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/.exec(url);
  if (!cluster) {
    if (/^rediss?\+cluster:/.test(url)) throw new ConfigError(`Invalid configuration: REDIS_URL ${CLUSTER_FORM}`);
    return { kind: 'single', url };
  }
  const [, scheme, auth, hosts] = cluster as unknown as [string, string, string | undefined, string];
  const nodes = hosts.split(',').map((hostPort) => {
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(hostPort);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      throw new ConfigError(`Invalid configuration: REDIS_URL ${CLUSTER_FORM} (not host:port: ${hostPort})`);
    }
    return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
  });
  // As ioredis reads a redis:// URL: `user:password`, `:password`, or a user alone.
  const colon = auth?.indexOf(':') ?? -1;
  const user = auth === undefined ? '' : decodeURIComponent(colon < 0 ? auth : auth.slice(0, colon));
  const password = auth === undefined || colon < 0 ? '' : decodeURIComponent(auth.slice(colon + 1));
  return {
    kind: 'cluster',
    nodes,
    username: user || undefined,
    password: password || undefined,
    tls: scheme === 'rediss',
  };
}

const CLUSTER_FORM = 'must be redis+cluster://[user:password@]host:port[,host:port...]';

const NUMERIC = new Set([
  'PORT',
  'QC_ANALYTICS_TIMEOUT_MS',
  'QC_DB_TIMEOUT_MS',
  'QC_DRAIN_MS',
  'QC_DB_STUCK_LIVENESS_MS',
  'QC_ACTOR_TURNS_PER_CUSTOMER',
  'QC_ACTOR_YIELD_MS',
  'QC_REPLICA_MAX_LAG_MS',
  'QC_INCIDENT_RETENTION_DAYS',
  'QC_RETENTION_CALENDAR_DAYS',
  'QC_RETENTION_OUTBOX_DAYS',
  'QC_RETENTION_DELIVERY_DAYS',
  'QC_RETENTION_ACK_DAYS',
  'QC_RETENTION_LEGACY_REVISION_DAYS',
  'QC_RETENTION_SHADOW_SAMPLE_DAYS',
  'QC_RETENTION_IDEMPOTENCY_HOURS',
  'QC_RETENTION_EVERY_MINUTES',
  'QC_LEGACY_UPSTREAM_TIMEOUT_MS',
  'QC_LEGACY_SHADOW_QUEUE',
  'QC_LEGACY_SHADOW_SAMPLES',
  'QC_LEGACY_CUTOVER_STREAK_DAYS',
]);

export function parseConfig(source: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value === undefined || value === '') continue;
    raw[key] = NUMERIC.has(key) && /^\d+$/.test(value) ? Number(value) : value;
  }
  const env = Value.Default(EnvSchema, raw) as Env;
  const first = Value.Errors(EnvSchema, env).First();
  if (first) {
    const variable = first.path.replace(/^\//, '') || 'environment';
    throw new ConfigError(`Invalid configuration: ${variable} ${wrongValue(first)}`);
  }
  // Without DATABASE_URL the service runs on its embedded database: a session or replica URL beside none says that
  // DATABASE_URL is missing (or misspelt), and was ignored while a fresh embedded database took the traffic.
  for (const variable of ['DATABASE_SESSION_URL', 'DATABASE_REPLICA_URL'] as const)
    if (env[variable] && !env.DATABASE_URL)
      throw new ConfigError(
        `Invalid configuration: ${variable} is set without DATABASE_URL (the PostgreSQL database it goes with; without it the service would run on its embedded database)`,
      );
  const trusted = parseTrustedProxies(env.QC_TRUSTED_PROXIES ?? '', env.QC_TRUSTED_PROXY_HEADER);
  if ('error' in trusted) throw new ConfigError(`Invalid configuration: QC_TRUSTED_PROXIES ${trusted.error}`);
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    redis: env.REDIS_URL ? parseRedisUrl(env.REDIS_URL) : undefined,
    databaseSessionUrl: env.DATABASE_SESSION_URL,
    databaseReplicaUrl: env.DATABASE_REPLICA_URL,
    replicaMaxLagMs: env.QC_REPLICA_MAX_LAG_MS,
    dbStuckLivenessMs: env.QC_DB_STUCK_LIVENESS_MS,
    operatorToken: env.QC_OPERATOR_TOKEN,
    dataDir: env.QC_DATA_DIR,
    pgliteTemplateDir:
      env.QC_PGLITE_TEMPLATE_DIR === 'off' ? undefined : (env.QC_PGLITE_TEMPLATE_DIR ?? DEFAULT_PGLITE_TEMPLATE_DIR),
    publicUrl: env.QC_PUBLIC_URL,
    logLevel: env.QC_LOG_LEVEL,
    demoOnEmpty: env.QC_DEMO_ON_EMPTY === '1',
    webhookAllowPrivate: env.QC_WEBHOOK_ALLOW_PRIVATE === '1',
    s3: env.QC_STORAGE_S3_BUCKET
      ? {
          bucket: env.QC_STORAGE_S3_BUCKET,
          endpoint: env.QC_STORAGE_S3_ENDPOINT,
          region: env.QC_STORAGE_S3_REGION,
          accessKeyId: env.QC_STORAGE_S3_ACCESS_KEY_ID,
          secretAccessKey: env.QC_STORAGE_S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    analyticsUrl: env.QC_ANALYTICS_URL,
    analyticsTimeoutMs: env.QC_ANALYTICS_TIMEOUT_MS,
    channelGatewayUrl: env.QC_CHANNEL_GATEWAY_URL,
    dbTimeoutMs: env.QC_DB_TIMEOUT_MS,
    actorTurnsPerCustomer: env.QC_ACTOR_TURNS_PER_CUSTOMER,
    actorYieldMs: env.QC_ACTOR_YIELD_MS,
    reusePort: env.QC_REUSE_PORT === '1',
    trustedProxies: trusted.proxies,
    drainMs: env.QC_DRAIN_MS,
    legacyCutover: {
      upstreamUrl: env.QC_LEGACY_UPSTREAM_URL,
      upstreamAllowPrivate: env.QC_LEGACY_UPSTREAM_ALLOW_PRIVATE === '1',
      upstreamTimeoutMs: env.QC_LEGACY_UPSTREAM_TIMEOUT_MS,
      queueCapacity: env.QC_LEGACY_SHADOW_QUEUE,
      samplesPerDay: env.QC_LEGACY_SHADOW_SAMPLES,
      liveStreakDays: env.QC_LEGACY_CUTOVER_STREAK_DAYS,
      ignoreFile: env.QC_LEGACY_SHADOW_IGNORE_FILE,
      migrationGuideUrl: env.QC_LEGACY_MIGRATION_GUIDE_URL,
    },
    incidentRetentionDays: env.QC_INCIDENT_RETENTION_DAYS,
    idleTimeoutSeconds: idleTimeoutSeconds(env.QC_LEGACY_UPSTREAM_TIMEOUT_MS),
    retention: {
      calendarDays: env.QC_RETENTION_CALENDAR_DAYS,
      outboxDays: env.QC_RETENTION_OUTBOX_DAYS,
      deliveryDays: env.QC_RETENTION_DELIVERY_DAYS,
      ackDays: env.QC_RETENTION_ACK_DAYS,
      legacyRevisionDays: env.QC_RETENTION_LEGACY_REVISION_DAYS,
      shadowSampleDays: env.QC_RETENTION_SHADOW_SAMPLE_DAYS,
      idempotencyHours: env.QC_RETENTION_IDEMPOTENCY_HOURS,
      everyMinutes: env.QC_RETENTION_EVERY_MINUTES,
    },
    keyEncryptionKey: env.QC_KEY_ENCRYPTION_KEY,
  };
}

/**
 * What is wrong with a variable's value, in TypeBox's words (its first letter lowered, never the rest: a pattern is
 * case-sensitive), or the values allowed for one that takes a few (TypeBox says only "expected union value").
 */
function wrongValue(error: ValueError): string {
  const allowed = (error.schema.anyOf as TSchema[] | undefined)?.map((choice) => choice.const);
  if (allowed?.length && allowed.every((value) => typeof value === 'string'))
    return `must be one of ${allowed.map((value) => `'${value}'`).join(', ')}`;
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

/** Bun's default for Elysia is 30 s, the legacy upstream's default deadline too: the close won the race. */
export function idleTimeoutSeconds(upstreamTimeoutMs: number): number {
  return Math.min(255, Math.max(30, Math.ceil(upstreamTimeoutMs / 1000) + 10));
}
