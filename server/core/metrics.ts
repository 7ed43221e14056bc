import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type Db, isDatabaseUnavailable } from './db/db.ts';

/**
 * The service's Prometheus metrics (prom-client), one registry per process, served at GET /metrics
 * (server/metrics/). Code that does the work counts it here: the pipeline its requests, the actors their
 * turns, the calendar its day-rows, the webhooks their deliveries, the legacy facade and cutover theirs.
 * Figures only the database knows (outbox lag, deliveries waiting) are read when scraped.
 */
export const metricsRegistry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'qc_http_requests_total',
  help: 'Requests answered (partner API, operator API, dashboard), by route name (unmatched: no route) and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestSeconds = new Histogram({
  name: 'qc_http_request_duration_seconds',
  help: 'Request latency (partner API, operator API, dashboard), by route name and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const legacyRequests = new Counter({
  name: 'qc_legacy_requests_total',
  help: 'Legacy PMS v1 requests answered, by endpoint (epClass/epMethod) and status',
  labelNames: ['endpoint', 'status'] as const,
  registers: [metricsRegistry],
});

export const legacyRequestSeconds = new Histogram({
  name: 'qc_legacy_request_duration_seconds',
  help: 'Legacy PMS v1 request latency, by endpoint',
  labelNames: ['endpoint'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

/** Shadow comparisons of the legacy cutover (server/legacy-cutover): `verdict` is same or different. */
export const legacyShadowComparisons = new Counter({
  name: 'qc_legacy_shadow_comparisons_total',
  help: 'Legacy requests answered by the legacy service and compared with the port, by verdict',
  labelNames: ['verdict'] as const,
  registers: [metricsRegistry],
});

/**
 * Shadowed legacy requests not compared: the upstream gave no answer, the comparison queue was full, or the
 * comparison itself failed (the actor's lock, a database error).
 */
export const legacyShadowUncompared = new Counter({
  name: 'qc_legacy_shadow_uncompared_total',
  help: 'Legacy requests in shadow mode left uncompared, by reason: unanswered (upstream), overflowed (queue full) or failed (comparison error)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const actorQueueDepth = new Gauge({
  name: 'qc_actor_queue_depth',
  help: 'Property actor turns queued or running in this process',
  registers: [metricsRegistry],
});

export const actorTurnSeconds = new Histogram({
  name: 'qc_actor_turn_duration_seconds',
  help: 'Time a property actor turn holds its property (lock taken to commit)',
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const dayRowsWritten = new Counter({
  name: 'qc_calendar_day_rows_written_total',
  help: 'Calendar day-rows written by inventory pushes to live properties, by endpoint',
  labelNames: ['endpoint'] as const,
  registers: [metricsRegistry],
});

/**
 * Data exceptions (SQLSTATE class 22) the error net answered 422 (server/core/http/render-error.ts): an input
 * check that names the field should have refused them first, or the value was the server's own (a bug). Either
 * way an operator should hear of each one, so this is a counter to alert on. Without labels, so it is exported
 * as 0 from the start and `increase()` sees the first catch (a labelled series would appear at 1); the SQLSTATE
 * and the database's message are in the incident and the warning.
 */
export const dataExceptionsCaught = new Counter({
  name: 'qc_data_exceptions_caught_total',
  help: 'Database data exceptions (SQLSTATE class 22) answered 422 by the error net instead of an input check',
  registers: [metricsRegistry],
});

export const idempotencyReplays = new Counter({
  name: 'qc_idempotency_replays_total',
  help: 'Writes answered with the stored first answer of their Idempotency-Key',
  registers: [metricsRegistry],
});

export const webhookDeliveryAttempts = new Counter({
  name: 'qc_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, failed (will retry) or dead (gave up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const outboxLag = new Gauge({
  name: 'qc_outbox_lag_seconds',
  help: 'Age of the oldest outbox event not yet relayed to webhooks (0 when none waits)',
  registers: [metricsRegistry],
});

const deliveriesWaiting = new Gauge({
  name: 'qc_webhook_deliveries',
  help: 'Webhook deliveries not finished, by status (pending, delivering, failed)',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

/** The series read from the database at scrape (the rest are counted by this process). */
const DATABASE_FIGURES = new Set(['qc_outbox_lag_seconds', 'qc_webhook_deliveries']);

/**
 * The exposition text, after reading the figures only the database holds. With the database out of reach those are
 * left out, absent rather than stale (or a lag of 0 nobody measured), and the process's own series are still served:
 * an outage is when the operator reads them (every series of the process was lost to a 503 then).
 */
export async function scrapeMetrics(db: Db, now: Date): Promise<string> {
  try {
    await readDatabaseFigures(db, now);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    const served = metricsRegistry.getMetricsAsArray().filter((metric) => !DATABASE_FIGURES.has(metric.name));
    const texts = await Promise.all(served.map((metric) => metricsRegistry.getSingleMetricAsString(metric.name)));
    return `${texts.join('\n\n')}\n`;
  }
  return metricsRegistry.metrics();
}

async function readDatabaseFigures(db: Db, now: Date): Promise<void> {
  // The oldest waiting event is the first by id (commit order), found through the partial index.
  const [oldest] = await db.sql<{ created_at: Date }>`
    select created_at from outbox_events where relayed_at is null order by id limit 1`;
  outboxLag.set(oldest ? Math.max(0, (now.getTime() - new Date(oldest.created_at).getTime()) / 1000) : 0);
  const waiting = await db.sql<{ status: string; n: number }>`
    select status, count(*)::int as n from deliveries
    -- next_attempt_at: what the partial index of unfinished deliveries holds (migration 1120).
    where next_attempt_at is not null and status in ('pending', 'delivering', 'failed') group by status`;
  for (const status of ['pending', 'delivering', 'failed'])
    deliveriesWaiting.set({ status }, waiting.find((row) => row.status === status)?.n ?? 0);
}

/**
 * One answered request; `route` is the route name (`qc.`, `ops.` or `dashboard.<resource>.<action>`), never the raw
 * path, and undefined for a path no route serves (`unmatched`: one series however many paths a scanner tries).
 */
export function countRequest(
  route: string | undefined,
  method: string,
  status: unknown,
  startedAt: number,
  now = performance.now(),
): void {
  const seconds = (now - startedAt) / 1000;
  const series = requestSeries(route ?? 'unmatched', method, String(status ?? 200));
  // prom-client validates and hashes the labels of every inc and observe (about 0.8 us a request, issue 27); a
  // series already in the registry is moved in place, as prom-client itself would move it. A series not there
  // (the first of its labels, or after a reset) goes through prom-client, which creates it.
  const counted = (httpRequests as unknown as Stored<{ value: number }>).hashMap[series.hash];
  if (counted) counted.value += 1;
  else series.hash = (httpRequests.inc(series.labels) as unknown as { labelHash: string }).labelHash;
  const observed = (httpRequestSeconds as unknown as Stored<HistogramSeries>).hashMap[series.hash];
  if (!observed) {
    httpRequestSeconds.observe(series.labels, seconds);
    return;
  }
  observed.sum += seconds;
  observed.count += 1;
  // The first bucket whose bound is at least the value (prom-client's findBound); above the last, only +Inf.
  for (const bound of SECONDS)
    if (seconds <= bound) {
      const counted = observed.bucketValues[bound];
      if (counted !== undefined) observed.bucketValues[bound] = counted + 1;
      break;
    }
}

/** prom-client's store of a metric's series, by the hash of their labels (15.x; metrics.rule.test.ts pins it). */
interface Stored<Series> {
  hashMap: Record<string, Series | undefined>;
}
interface HistogramSeries {
  sum: number;
  count: number;
  /** Every bound of SECONDS, from 0 when the series is created. */
  bucketValues: Record<number, number>;
}

interface RequestSeries {
  labels: { route: string; method: string; status: string };
  /**
   * prom-client's key of these labels (what its `inc` answers), the same for the counter and the histogram: both
   * hash the same label names. Empty until the first count; a histogram stored under another key would only
   * mean every observation takes prom-client's own path.
   */
  hash: string;
}

// route -> method -> status: a few dozen series at most (route names and statuses are bounded sets).
const series = new Map<string, Map<string, Map<string, RequestSeries>>>();

function requestSeries(route: string, method: string, status: string): RequestSeries {
  let byMethod = series.get(route);
  if (!byMethod) {
    byMethod = new Map();
    series.set(route, byMethod);
  }
  let byStatus = byMethod.get(method);
  if (!byStatus) {
    byStatus = new Map();
    byMethod.set(method, byStatus);
  }
  let found = byStatus.get(status);
  if (!found) {
    found = { labels: { route, method, status }, hash: '' };
    byStatus.set(status, found);
  }
  return found;
}
