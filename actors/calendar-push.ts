import type { Db } from '../server/core/db/db.ts';
import type { Deps } from '../server/core/deps.ts';
import { recordEvent } from '../server/core/outbox.ts';
import { acceptedWindow, type DayWindow } from './calendar-window.ts';
import {
  type PairTarget,
  type Prices,
  type RestrictionValues,
  writeAvailability,
  writeRates,
  writeRestrictions,
} from './calendar-writes.ts';
import type { DayRows } from './day-rows.ts';

/** A property as a calendar turn reads it, inside the turn (the mode may have flipped since the request began). */
export interface CalendarProperty {
  id: number;
  external_id: string;
  customer_id: number;
  timezone: string;
  mode: 'shadow' | 'live';
}

/** What a batch expands to, per calendar table. */
export interface CalendarTables {
  availability?: DayRows<number, number>;
  rates?: DayRows<PairTarget, Prices>;
  restrictions?: DayRows<PairTarget, RestrictionValues>;
}

/** An endpoint's validated, expanded batch, plus its own report (warnings or row errors) for the answer. */
export interface PlannedBatch<R> {
  tables: CalendarTables;
  /** Request rows, and how many of them were refused in whole or in part. */
  rows: number;
  failedRows: number;
  report: R;
}

export interface CalendarCounters {
  written: number;
  unchanged: number;
  skipped_out_of_window: number;
  dry: boolean;
}

export interface PushOutcome<R> {
  counters: CalendarCounters;
  report: R;
  /** Set when the write itself failed and `writeFailures` was 'report' (nothing of the batch was written). */
  writeError?: string;
}

export interface PushOptions<R> {
  /** Route name recorded as the event's `endpoint`. */
  endpoint: string;
  /** Validation against the structure and expansion into day-rows; throws ApiError for a whole-batch refusal. */
  plan: (tx: Db, property: CalendarProperty) => Promise<PlannedBatch<R>>;
  /**
   * 'throw' (default): a failed write fails the request. 'report': the write is rolled back to a savepoint
   * and the outcome carries `writeError`, so the caller can answer per row (the per-plan rate write does).
   */
  writeFailures?: 'throw' | 'report';
}

/**
 * One calendar push as the property's actor runs it: in the property's turn (serialized, advisory lock
 * held), re-read the property, validate and expand the batch, split it by the accepted window, and, only
 * when the property is live, write each table in one statement and record `inventory.push.completed` in
 * the same transaction. A shadow property runs the same pipeline and stops before the write: `dry`, all
 * counters zero, nothing changes.
 */
export function pushCalendar<R>(deps: Deps, propertyId: number, options: PushOptions<R>): Promise<PushOutcome<R>> {
  return deps.actors.run(propertyId, async (tx) => {
    const [property] = await tx.sql<CalendarProperty>`
      select id, external_id, customer_id, timezone, mode from properties where id = ${propertyId}`;
    if (!property) throw new Error(`property ${propertyId} vanished during its calendar turn`);
    const batch = await options.plan(tx, property);
    const now = deps.clock.now();
    const window = acceptedWindow(property.timezone, now);
    if (property.mode === 'shadow') {
      return { counters: { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: true }, report: batch.report };
    }

    let counters: CalendarCounters;
    let writeError: string | undefined;
    if (options.writeFailures === 'report') {
      await tx.sql`savepoint calendar_write`;
      try {
        counters = await writeTables(tx, batch.tables, window, now);
        await tx.sql`release savepoint calendar_write`;
      } catch (err) {
        await tx.sql`rollback to savepoint calendar_write`;
        writeError = err instanceof Error ? err.message : String(err);
        deps.log.error('calendar write failed', { property_id: property.external_id, endpoint: options.endpoint, error: writeError });
        counters = { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: false };
      }
    } else {
      counters = await writeTables(tx, batch.tables, window, now);
    }

    const failed = writeError ? batch.rows : batch.failedRows;
    await recordEvent(tx, {
      type: 'inventory.push.completed',
      customerId: property.customer_id,
      propertyId: property.id,
      data: {
        endpoint: options.endpoint,
        property_id: property.external_id,
        success: batch.rows - failed,
        failed,
        ...counters,
      },
    });
    return { counters, report: batch.report, writeError };
  });
}

async function writeTables(tx: Db, tables: CalendarTables, window: DayWindow, now: Date): Promise<CalendarCounters> {
  const counters: CalendarCounters = { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: false };
  const add = (split: { inside: unknown[]; outside: number }, written: number) => {
    counters.written += written;
    counters.unchanged += split.inside.length - written;
    counters.skipped_out_of_window += split.outside;
  };
  if (tables.availability) {
    const split = tables.availability.within(window.from, window.to);
    add(split, await writeAvailability(tx, split.inside, now));
  }
  if (tables.rates) {
    const split = tables.rates.within(window.from, window.to);
    add(split, await writeRates(tx, split.inside, now));
  }
  if (tables.restrictions) {
    const split = tables.restrictions.within(window.from, window.to);
    add(split, await writeRestrictions(tx, split.inside, now));
  }
  return counters;
}
