import type { Config } from '../core/config.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { purgeIncidents } from '../core/http/incidents.ts';
import { errorFields } from '../core/log.ts';
import { daysBefore } from './batches.ts';
import { dropPastCalendarMonths, ensureCalendarMonths } from './calendar-months.ts';
import { pruneAcksBehindWatermarks } from './feed-acks.ts';
import { pruneIdempotentCreates } from './idempotent-creates.ts';
import { pruneLegacyRevisions, pruneShadowSamples } from './legacy-history.ts';
import { pruneDeliveries, pruneDeliveryAttempts, pruneOutboxEvents } from './webhook-history.ts';

/** What one pass removed (and the calendar months it created ahead), per table. */
export interface RetentionReport {
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
  incidents: number;
}

/**
 * One retention pass over every table that grows with time (docs/operations.md, "Retention"), each by its
 * own setting. Idempotent and safe in several processes at once: every step removes only what is past its
 * time, in short statements (or, for the calendar, drops whole month partitions under a short lock wait).
 */
export async function runRetention(db: Db, config: Pick<Config, 'retention' | 'incidentRetentionDays'>, now: Date) {
  const r = config.retention;
  const months = await dropPastCalendarMonths(db, now, r.calendarDays);
  const report: RetentionReport = {
    calendar_months_created: await ensureCalendarMonths(db, now),
    calendar_partitions_dropped: months.partitions,
    calendar_default_rows: months.defaultRows,
    delivery_attempts: await pruneDeliveryAttempts(db, daysBefore(now, r.deliveryDays)),
    deliveries: await pruneDeliveries(db, daysBefore(now, r.deliveryDays)),
    outbox_events: await pruneOutboxEvents(db, daysBefore(now, r.outboxDays)),
    booking_revision_acks: await pruneAcksBehindWatermarks(db, daysBefore(now, r.ackDays)),
    legacy_booking_revisions: await pruneLegacyRevisions(db, now, r.legacyRevisionDays),
    legacy_shadow_samples: await pruneShadowSamples(db, now, r.shadowSampleDays),
    idempotent_creates: await pruneIdempotentCreates(db, new Date(now.getTime() - r.idempotencyHours * 3600_000)),
    incidents: await purgeIncidents(db, now, config.incidentRetentionDays),
  };
  return report;
}

/**
 * Runs a pass now and then every QC_RETENTION_EVERY_MINUTES in this process (0: never; `npm run retention`
 * runs one by hand). A failed pass is logged and the next one tries again.
 */
export function startRetention(deps: Deps): { stop(): Promise<void> } {
  const every = deps.config.retention.everyMinutes;
  if (every === 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  const pass = () => {
    running ??= runRetention(deps.db, deps.config, deps.clock.now())
      .then((report) => {
        if (Object.values(report).some((n) => n > 0)) deps.log.info('retention pass', { ...report });
      })
      .catch((err) => deps.log.warn('retention pass failed', errorFields(err)))
      .finally(() => {
        running = undefined;
      });
  };
  pass();
  const timer = setInterval(pass, every * 60_000);
  timer.unref();
  // Shutdown waits for a pass in flight: the database closes after it.
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
