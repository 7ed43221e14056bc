import type { Config } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { purgeIncidents } from '../core/http/incidents.ts';
import { errorFields } from '../core/log.ts';
import { daysBefore } from './batches.ts';
import { pruneBookingIntakeKeys } from './booking-intake-keys.ts';
import { dropPastCalendarMonths, ensureCalendarMonths } from './calendar-months.ts';
import { pruneAcksBehindWatermarks } from './feed-acks.ts';
import { pruneIdempotentCreates } from './idempotent-creates.ts';
import { pruneLegacyRevisions, pruneShadowSamples } from './legacy-history.ts';
import { pruneDeliveries, pruneDeliveryAttempts, pruneOutboxEvents } from './webhook-history.ts';

/** What one pass removed (and the calendar months it created ahead), per table. */
export interface RetentionCounts {
  calendar_months_created: number;
  calendar_partitions_dropped: number;
  calendar_default_rows: number;
  delivery_attempts: number;
  deliveries: number;
  outbox_events: number;
  booking_revision_acks: number;
  legacy_booking_revisions: number;
  legacy_shadow_samples: number;
  idempotent_creates: number;
  booking_intake_keys: number;
  incidents: number;
}

/** The counts, and how long each step took (milliseconds, the step's waits between its batches included). */
export interface RetentionReport extends RetentionCounts {
  step_ms: Record<RetentionStep, number>;
}

type RetentionStep =
  | 'calendar_drop'
  | 'calendar_create'
  | 'delivery_attempts'
  | 'deliveries'
  | 'outbox_events'
  | 'booking_revision_acks'
  | 'legacy_booking_revisions'
  | 'legacy_shadow_samples'
  | 'idempotent_creates'
  | 'booking_intake_keys'
  | 'incidents';

/**
 * One retention pass over every table that grows with time (docs/operations.md, "Retention"), each by its
 * own setting. Idempotent and safe in several processes at once: every step removes only what is past its
 * time, in short statements (or, for the calendar, drops whole month partitions under a short lock wait).
 */
export async function runRetention(
  db: Db,
  config: Pick<Config, 'retention' | 'incidentRetentionDays'>,
  now: Date,
  signal?: AbortSignal,
): Promise<RetentionReport> {
  const r = config.retention;
  const step_ms = {} as Record<RetentionStep, number>;
  // Steps run one after another: the pass is meant to be slow and light beside the traffic (batches.ts).
  const timed = async <T>(step: RetentionStep, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      step_ms[step] = Math.round(performance.now() - started);
    }
  };
  const months = await timed('calendar_drop', () => dropPastCalendarMonths(db, now, r.calendarDays, signal));
  return {
    calendar_months_created: await timed('calendar_create', () => ensureCalendarMonths(db, now)),
    calendar_partitions_dropped: months.partitions,
    calendar_default_rows: months.defaultRows,
    delivery_attempts: await timed('delivery_attempts', () =>
      pruneDeliveryAttempts(db, daysBefore(now, r.deliveryDays), signal),
    ),
    deliveries: await timed('deliveries', () => pruneDeliveries(db, daysBefore(now, r.deliveryDays), signal)),
    outbox_events: await timed('outbox_events', () => pruneOutboxEvents(db, daysBefore(now, r.outboxDays), signal)),
    booking_revision_acks: await timed('booking_revision_acks', () =>
      pruneAcksBehindWatermarks(db, daysBefore(now, r.ackDays), signal),
    ),
    legacy_booking_revisions: await timed('legacy_booking_revisions', () =>
      pruneLegacyRevisions(db, now, r.legacyRevisionDays, signal),
    ),
    legacy_shadow_samples: await timed('legacy_shadow_samples', () =>
      pruneShadowSamples(db, now, r.shadowSampleDays, signal),
    ),
    idempotent_creates: await timed('idempotent_creates', () =>
      pruneIdempotentCreates(db, new Date(now.getTime() - r.idempotencyHours * 3600_000), signal),
    ),
    booking_intake_keys: await timed('booking_intake_keys', () =>
      pruneBookingIntakeKeys(db, new Date(now.getTime() - r.idempotencyHours * 3600_000), signal),
    ),
    incidents: await timed('incidents', () => purgeIncidents(db, now, config.incidentRetentionDays, signal)),
    step_ms,
  };
}

/** Whether a pass removed or created anything (a pass that did nothing is not logged). */
function changedAnything(report: RetentionReport): boolean {
  const { step_ms: _, ...counts } = report;
  return Object.values(counts).some((n) => n > 0);
}

/**
 * Runs a pass now and then every QC_RETENTION_EVERY_MINUTES in this process (0: never; `npm run retention`
 * runs one by hand). A failed pass is logged and the next one tries again.
 */
export function startRetention(deps: Deps): { stop(): Promise<void> } {
  const every = deps.config.retention.everyMinutes;
  if (every === 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  const stopping = new AbortController();
  const pass = () => {
    running ??= runRetention(deps.db, deps.config, deps.clock.now(), stopping.signal)
      .then((report) => {
        if (changedAnything(report)) deps.log.info('retention pass', { ...report });
      })
      .catch((err) => deps.log.warn('retention pass failed', errorFields(err)))
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, every * 60_000);
  timer.unref();
  // Shutdown stops a pass in flight at its next batch (each batch is its own statement, so nothing is half done;
  // the next start goes on from there) and waits for that batch: the database closes after it. Waiting out the
  // pass instead held a drain for as long as its rests, minutes over a backlog.
  return {
    stop: async () => {
      clearInterval(timer);
      stopping.abort();
      await running;
    },
  };
}
