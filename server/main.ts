import { join } from 'node:path';
import { buildApp } from './app.ts';
import { createDeps, operatorToken } from './boot.ts';
import { ConfigError, parseConfig } from './core/config.ts';
import { isDatabaseUnavailable, sqlState } from './core/db/db.ts';
import { MigrationLockBusy } from './core/db/migrate.ts';
import { writeKeptTemplates } from './core/db/pglite-template.ts';
import { MAX_REQUEST_BODY_BYTES } from './core/http/read-body.ts';
import { errorFields, flushLog } from './core/log.ts';
import { closeRedis, redisProbe } from './core/redis.ts';
import { createDemo } from './demo/demo.ts';
import { demoSteps } from './demo/demo-steps.ts';
import { firstStartDemoClient, restartBanner } from './demo/start-banner.ts';
import { createLegacyCutover } from './legacy-cutover/legacy-cutover.ts';
import { startRetention } from './retention/retention-pass.ts';
import { startReviewReplies } from './reviews/reply-delivery.ts';
import { startWebhooks } from './webhooks/dispatcher.ts';

const started = performance.now();
let config: ReturnType<typeof parseConfig>;
try {
  config = parseConfig(process.env);
} catch (err) {
  stopStarting(err);
}

const progress = startupProgress();
const { deps, cutover } = await openService().catch(stopStarting);
const operator = operatorToken(config);
let stopping = false;
// Draining: /readyz answers 503 from the first moment of a shutdown, so a balancer stops sending new requests.
const accepting = {
  name: 'accepting',
  async check() {
    if (stopping) throw new Error('shutting down');
  },
};
const app = buildApp(deps, {
  operatorToken: operator.token,
  probes: [accepting, ...(deps.redis ? [redisProbe(deps.redis)] : [])],
  cutover,
});
// Installed before listening: a SIGTERM while starting (a supervisor, a test that saw /healthz) still exits
// cleanly and closes what was opened.
let webhooks: Awaited<ReturnType<typeof startWebhooks>> | undefined;
let reviewReplies: ReturnType<typeof startReviewReplies> | undefined;
let retention: ReturnType<typeof startRetention> | undefined;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  deps.log.info('shutting down', { signal, drain_ms: config.drainMs });
  try {
    // Requests keep being served while the balancer notices /readyz and takes this process out; only then
    // does the listener close (in-flight requests still finish), so no request meets a closing connection.
    await Bun.sleep(config.drainMs);
    await app.stop();
    // Shadow comparisons already queued are finished (their dry runs need the database).
    await cutover.comparisons.stop();
    await retention?.stop();
    // Waits for attempts in flight (each bounded by the 5 s response deadline) before the database goes.
    await webhooks?.stop();
    await reviewReplies?.stop();
    await deps.reads.close();
    await deps.db.close();
    if (deps.redis) await closeRedis(deps.redis);
    // The template this start took for the next empty data dir (pglite-template.ts) is not lost.
    await writeKeptTemplates();
  } catch (err) {
    deps.log.error('shutdown failed', errorFields(err));
  }
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  // Bun would otherwise share a busy port (SO_REUSEPORT) with whatever holds it, silently.
  app.listen({
    port: config.port,
    hostname: config.host,
    reusePort: config.reusePort,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    // Longer than the legacy upstream deadline: a hung upstream answers 504 before the connection is closed.
    idleTimeout: config.idleTimeoutSeconds,
  });
} catch (err) {
  if ((err as { code?: unknown }).code !== 'EADDRINUSE') throw err;
  console.error(
    `Port ${config.port} on ${config.host} is already in use (is another instance running?). Stop it or choose ` +
      'another PORT; set QC_REUSE_PORT=1 to run several processes on one port on purpose.',
  );
  await deps.db.close();
  if (deps.redis) await closeRedis(deps.redis);
  process.exit(1);
}
// A SIGTERM can arrive while the rest of start-up still runs (a supervisor, a test that saw /healthz): shutdown
// then closes the database under it, and what fails because of that is expected, not a crash.
try {
  // Every process relays the outbox and delivers webhooks; they share the work through the database (and BullMQ).
  webhooks = await startWebhooks(deps);
  // Review replies go to the channels the same way: any process sends due ones, claims keep them apart.
  reviewReplies = startReviewReplies(deps);
  const base = config.publicUrl ?? `http://localhost:${app.server?.port ?? config.port}`;
  deps.log.info('listening', {
    url: base,
    database: deps.db.kind,
    redis: config.redis?.kind ?? 'in-process',
    webhook_queue: webhooks.queue,
    startup_ms: Math.round(performance.now() - started),
  });

  const [{ customers }] = (await deps.db.sql<{ customers: number }>`select count(*) as customers from customers`) as [
    { customers: number },
  ];
  if (operator.generated || customers === 0) console.log(`\n${operatorTokenLine()}`);
  if (customers === 0 && config.demoOnEmpty) {
    console.log('Creating the demo customer (properties, rooms, plans, a calendar and bookings)...');
    const demo = await createDemo(deps, demoSteps);
    console.log(`
  Demo customer created (POST /ops/demo makes more):
    OAuth client_id:     ${demo.client.client_id}
    OAuth client_secret: ${demo.client.client_secret}
    Personal token:      ${demo.personal_token}
    Legacy api_key:      ${demo.legacy_api_key}
    Properties:          ${demo.properties.map((p) => `${p.external_property_id} (${p.mode}, ${p.partner_code})`).join(', ')}

  Try it:
    curl -s ${base}/v1/qc/properties -H 'Authorization: Bearer ${demo.personal_token}'
    curl -s ${base}/v1/qc/oauth/token -d grant_type=client_credentials -d client_id=${demo.client.client_id} -d client_secret=${demo.client.client_secret}
  Docs: ${base}/v1/qc/docs   OpenAPI: ${base}/v1/qc/openapi.yaml

  Webhooks on this machine: TOKEN=${demo.personal_token} npm run webhook:listen -- --base ${base}
    (subscribes a local receiver that verifies and prints every delivery;${config.webhookAllowPrivate ? '' : ' start the service with QC_WEBHOOK_ALLOW_PRIVATE=1 so it may deliver to http://127.0.0.1;'}
    the signing key is the whole whsec_... secret, prefix included)
  `);
  } else if (Number(customers) > 0) {
    // A restart: the first start's credentials are gone (stored as digests); say where things are instead.
    const operatorTokenFile = config.operatorToken ? undefined : join(config.dataDir, 'operator-token');
    console.log(restartBanner({ base, operatorTokenFile, demoClientId: await firstStartDemoClient(deps.db) }));
  }
  // Every table that grows with time is trimmed to its retention setting (incidents included), and the
  // calendar's month partitions are created ahead (server/retention). After the demo: the embedded database runs
  // one statement at a time on this thread, and the first pass (a calendar month created ahead, on a fresh one)
  // delayed the demo's credentials by 0.3-0.6 s; on an empty database it has nothing to remove.
  retention = startRetention(deps);
  // Now that the demo is out: the next empty data dir's template, when this start took one (pglite-template.ts).
  void writeKeptTemplates();
} catch (err) {
  if (!stopping) throw err;
}

/** The database (migrated), signing keys, Redis and the legacy cutover: everything serving needs. */
async function openService() {
  try {
    const deps = await createDeps(config, { progress: progress.step });
    return { deps, cutover: createLegacyCutover(deps) };
  } finally {
    progress.done();
  }
}

/**
 * A start that cannot go on for a cause the operator fixes outside the code (a wrong variable, a key-encryption key
 * that does not open the database's keys, an ignore file that is missing, a database out of reach, a migration
 * whose table a long transaction holds) says so in one
 * line on stderr and exits 1, as a busy port does. Anything else is a bug: its stack is what helps.
 */
function stopStarting(err: unknown): never {
  const cause = err instanceof ConfigError || err instanceof MigrationLockBusy ? err.message : databaseOutOfReach(err);
  if (!cause) throw err;
  flushLog();
  console.error(cause);
  process.exit(1);
}

/** The line for a database that refused or never answered the start: its address is in the driver's message. */
function databaseOutOfReach(err: unknown): string | undefined {
  const code = sqlState(err) ?? '';
  // Refused, timed out, no such host (isDatabaseUnavailable); a login refused (28xxx) or no such database (3D000).
  const unreachable = isDatabaseUnavailable(err) || code === 'ENOTFOUND' || /^(28|3D)/.test(code);
  if (!unreachable || !config.databaseUrl) return undefined;
  const variables = config.databaseSessionUrl ? 'DATABASE_URL or DATABASE_SESSION_URL' : 'DATABASE_URL';
  return `Cannot open the database of ${variables}: ${(err as Error).message}`;
}

/**
 * Where the operator token comes from. Only a token this start generated is printed: one set through
 * QC_OPERATOR_TOKEN, or kept from an earlier start, is the operator's already, and a token echoed to the console
 * ends up in log files.
 */
function operatorTokenLine(): string {
  const file = join(config.dataDir, 'operator-token');
  if (operator.generated) return `Operator token (for /ops): ${operator.token}\n  (generated now and kept in ${file})`;
  return `Operator token (for /ops): ${config.operatorToken ? 'the QC_OPERATOR_TOKEN you set' : `kept in ${file}`}`;
}

/**
 * Start-up prints what it is doing (opening the database, each migration, keys) so a first `npm start`
 * is not silent for seconds. A terminal sees one line rewritten in place; a log file gets one line each.
 */
function startupProgress() {
  const tty = process.stdout.isTTY;
  let last = 0;
  return {
    step(step: string) {
      flushLog();
      const line = `starting: ${step}`;
      if (!tty) return void console.log(line);
      process.stdout.write(`\r${line.padEnd(last)}`);
      last = line.length;
    },
    done() {
      if (tty && last) process.stdout.write('\n');
    },
  };
}
