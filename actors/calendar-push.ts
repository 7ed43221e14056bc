import type { Db } from '../server/core/db/db.ts';
import type { Deps } from '../server/core/deps.ts';
import { dayRowsWritten } from '../server/core/metrics.ts';
import { recordEvent } from '../server/core/outbox.ts';
import { type AvailabilityValue, writeAvailability } from './availability-writes.ts';
import { type CalendarProperty, readCalendarProperty } from './calendar-property.ts';
import { acceptedWindow, type DayWindow } from './calendar-window.ts';
import {
  type PairTarget,
  type Prices,
  type RestrictionValues,
  writeRates,
  writeRestrictions,
} from './calendar-writes.ts';
import type { DayRows } from './day-rows.ts';
import { dryRun } from './dry-run.ts';

/** What a batch expands to, per calendar table. */
export interface CalendarTables {
  availability?: DayRows<number, AvailabilityValue>;
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

/** What a write did (or, in `would`, what a dry run found it would do) to the day-rows of a batch. */
export interface WriteFigures {
  written: number;
  unchanged: number;
  skipped_out_of_window: number;
}

/**
 * A push's counters (spec 4.4). On a shadow property they stay zero with `dry: true`, and `would` (an
 * addition to the spec) carries what the same push would have written had the property been live.
 */
export interface CalendarCounters extends WriteFigures {
  dry: boolean;
  would?: WriteFigures;
}

export interface PushOutcome<R> {
  counters: CalendarCounters;
  report: R;
}

export interface PushOptions<R> {
  /** Route name recorded as the event's `endpoint`. */
  endpoint: string;
  /** Validation against the structure and expansion into day-rows; throws ApiError for a whole-batch refusal. */
  plan: (tx: Db, property: CalendarProperty) => Promise<PlannedBatch<R>>;
}

/**
 * The bulk write itself failed (the turn's transaction is rolled back: nothing of the batch was written).
 * Carries the validated batch so a caller answering per row can still report it.
 */
export class CalendarWriteError<R = unknown> extends Error {
  constructor(
    failure: unknown,
    readonly batch: PlannedBatch<R>,
    readonly property: CalendarProperty,
  ) {
    super(`calendar write failed: ${failure instanceof Error ? failure.message : String(failure)}`, { cause: failure });
    this.name = 'CalendarWriteError';
  }

  /** The database's own words, for the per-row `write_failed` message. */
  get detail(): string {
    return this.cause instanceof Error ? this.cause.message : String(this.cause);
  }
}

/**
 * One calendar push as the property's actor runs it: in the property's turn (serialized, advisory lock
 * held), re-read the property, validate and expand the batch, split it by the accepted window, and, only
 * when the property is live, write each table in one statement and record `inventory.push.completed` in
 * the same transaction. A shadow property runs the same writes as a dry run (actors/dry-run.ts): they are
 * rolled back before the turn ends and no event is recorded; the answer is `dry`, counters zero, and
 * `would` with the figures the writes produced.
 */
export async function pushCalendar<R>(
  deps: Deps,
  propertyId: number,
  options: PushOptions<R>,
): Promise<PushOutcome<R>> {
  const outcome = await turnOf(deps, propertyId, options);
  // Counted once the turn has committed: a dry run (shadow) or a rolled-back turn wrote nothing.
  if (!outcome.counters.dry) dayRowsWritten.inc({ endpoint: options.endpoint }, outcome.counters.written);
  return outcome;
}

function turnOf<R>(deps: Deps, propertyId: number, options: PushOptions<R>): Promise<PushOutcome<R>> {
  return deps.actors.run(propertyId, async (tx) => {
    // A turn is a handful of short statements; compiling them (JIT kicks in on a big calendar's cost
    // estimates) would cost more than running them.
    await tx.sql`set local jit = off`;
    const property = await readCalendarProperty(tx, propertyId);
    const batch = await options.plan(tx, property);
    const now = deps.clock.now();
    const window = acceptedWindow(property.timezone, now);
    const write = async (tx: Db) => {
      try {
        return await writeTables(tx, batch.tables, window, now);
      } catch (err) {
        throw new CalendarWriteError(err, batch, property);
      }
    };
    if (property.mode === 'shadow') {
      const would = await dryRun(tx, write);
      return {
        counters: { written: 0, unchanged: 0, skipped_out_of_window: 0, dry: true, would },
        report: batch.report,
      };
    }
    const figures = await write(tx);
    const counters: CalendarCounters = { ...figures, dry: false };
    await recordPushCompleted(tx, property, options.endpoint, batch.rows, batch.failedRows, counters);
    return { counters, report: batch.report };
  });
}

/** The `inventory.push.completed` event (spec 6.3): the push's success and failed row counts and its counters. */
export async function recordPushCompleted(
  tx: Db,
  property: CalendarProperty,
  endpoint: string,
  rows: number,
  failed: number,
  counters: CalendarCounters,
): Promise<void> {
  await recordEvent(tx, {
    type: 'inventory.push.completed',
    customerId: property.customer_id,
    propertyId: property.id,
    data: { endpoint, property_id: property.external_id, success: rows - failed, failed, ...counters },
  });
}

async function writeTables(tx: Db, tables: CalendarTables, window: DayWindow, now: Date): Promise<WriteFigures> {
  const counters: WriteFigures = { written: 0, unchanged: 0, skipped_out_of_window: 0 };
  const add = (split: { days: number; outside: number }, written: number) => {
    counters.written += written;
    counters.unchanged += split.days - written;
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
