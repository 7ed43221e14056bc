import { type Db, isDatabaseUnavailable, isReadOnlyServer } from '../server/core/db/db.ts';
import type { Deps } from '../server/core/deps.ts';
import { dayRowsWritten } from '../server/core/metrics.ts';
import { recordEvent } from '../server/core/outbox.ts';
import { type CalendarProperty, openCalendarTurn } from './calendar-property.ts';
import { loadStructure, type PropertyStructure } from './calendar-structure.ts';
import { type PlannedBatch, type WriteFigures, writeTables } from './calendar-tables.ts';
import { acceptedWindow, type DayWindow, legacyStamp, legacyWindow } from './calendar-window.ts';
import { dryRun } from './dry-run.ts';
import type { RateRow, RowError } from './plan-rate-row.ts';
import { planRateTables, writeFailedRows } from './plan-rate-rows.ts';
import { type PriceRow, priceTables } from './price-rows.ts';
import { type AvailabilityRow, availabilityTables, type RestrictionRow, restrictionTables } from './push-rows.ts';
import type { PushWarning } from './push-warnings.ts';
import { type StagedAvailabilityRow, type StagedStop, stagedAvailabilityTables } from './staged-availability-rows.ts';

export type { WriteFigures } from './calendar-tables.ts';

/** A modern write: the route name recorded as its event's `endpoint`, and who asks (for the multi-property check). */
interface ModernWrite {
  endpoint: string;
}
interface PushWrite extends ModernWrite {
  /** The caller's properties: a row naming another of them is a multi-property batch, not an unknown id. */
  visiblePropertyIds: readonly number[];
}

/**
 * Every calendar write, as data: what to write, never a callback. The three inventory pushes, the per-plan
 * rate write and legacy `updateAvailability`. Bookings' held rooms move in the booking's own turn
 * (`moveHeldRooms` in actors/held-rooms.ts).
 */
export type CalendarWrite =
  | (PushWrite & { kind: 'availability'; rows: readonly AvailabilityRow[] })
  | (PushWrite & { kind: 'restrictions'; rows: readonly RestrictionRow[] })
  | (PushWrite & {
      kind: 'prices';
      rows: readonly PriceRow[];
      /** The longest code an occupancy vocabulary can hold: a longer or blank one is never a code (price-rows.ts). */
      longestCode: number;
    })
  | (ModernWrite & {
      kind: 'plan-rates';
      ratePlan: string;
      rows: readonly (RateRow | RowError)[];
      /** As `longestCode` of the prices write: a longer code is never a code (plan-rate-rows.ts). */
      longestCode: number;
    })
  | { kind: 'legacy-availability'; rows: readonly StagedAvailabilityRow[] };

/**
 * A write's counters (spec 4.4). On a shadow property they stay zero with `dry: true`, and `would` (an
 * addition to the spec) carries what the same write would have written had the property been live.
 */
export interface CalendarCounters extends WriteFigures {
  dry: boolean;
  would?: WriteFigures;
}

export interface CalendarOutcome {
  counters: CalendarCounters;
  /** The inventory pushes' row warnings. */
  warnings: PushWarning[];
  /** The per-plan write's row errors (in row order) and its rows applied (0 when dry or failed). */
  rowErrors: RowError[];
  accepted: number;
  /** Legacy: the first failing row, answered after the rows before it were written. */
  stop?: StagedStop;
}

/**
 * The bulk write itself failed (the turn's transaction is rolled back: nothing of the batch was written).
 * Carries the resolved batch so a write answering per row can still report it.
 */
export class CalendarWriteError extends Error {
  constructor(
    failure: unknown,
    readonly batch: PlannedBatch,
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
 * The one calendar write orchestration, as the property's actor runs it: in the property's turn
 * (serialized, advisory lock held), read the property and its structure, resolve the rows against them,
 * take the accepted window, expand into day-rows, and, only when the property is live, write each table in
 * one statement and record `inventory.push.completed` in the same transaction. A shadow property runs the
 * same writes as a dry run (actors/dry-run.ts): rolled back before the turn ends, no event; the answer is
 * `dry`, counters zero, and `would` with the figures the writes produced; a write inside a dry-run turn
 * (actors.dryRun) answers the same way. Legacy writes keep the legacy
 * service's window (PHP's `+2 years`) and set-time (today 05:00 property-local) and record no event.
 */
export async function writeCalendar(deps: Deps, propertyId: number, write: CalendarWrite): Promise<CalendarOutcome> {
  let outcome: CalendarOutcome;
  try {
    outcome = await deps.actors.run(propertyId, (tx) => turn(deps, tx, propertyId, write));
  } catch (err) {
    if (!(err instanceof CalendarWriteError)) throw err;
    if (write.kind === 'plan-rates') return planWriteFailed(deps, write, err);
    // Legacy answers a database failure with its own words and SQLSTATE (legacy/bytes.ts).
    throw write.kind === 'legacy-availability' ? err.cause : err;
  }
  // Counted once the turn has committed: a dry run (shadow) or a rolled-back turn wrote nothing.
  if (!outcome.counters.dry && write.kind !== 'legacy-availability')
    dayRowsWritten.inc({ endpoint: write.endpoint }, outcome.counters.written);
  return outcome;
}

async function turn(deps: Deps, tx: Db, propertyId: number, write: CalendarWrite): Promise<CalendarOutcome> {
  const property = await openCalendarTurn(tx, propertyId);
  const structure = await loadStructure(tx, property.id);
  const now = deps.clock.now();
  const legacy = write.kind === 'legacy-availability';
  const window = legacy ? legacyWindow(property.timezone, now) : acceptedWindow(property.timezone, now);
  const { batch, stop } = await resolveRows(tx, structure, property, write, window);
  const stamp = legacy ? await legacyStamp(tx, property, now) : now;
  const writeAll = async (tx: Db) => {
    try {
      return await writeTables(tx, batch.tables, window, stamp);
    } catch (err) {
      // The database lost, the statement cancelled (a timeout, an operator) or the write refused by a hot standby:
      // an outage, not this batch's failure, and nothing was applied. It stays itself, so the push answers 503 with
      // its key given back, never a 500 or a per-row write_failed (a 200 an Idempotency-Key would keep, replaying
      // the failure to every retry).
      if (isDatabaseUnavailable(err) || isReadOnlyServer(err)) throw err;
      throw new CalendarWriteError(err, batch, property);
    }
  };
  const answer = (counters: CalendarCounters): CalendarOutcome => ({
    counters,
    warnings: batch.warnings ?? [],
    rowErrors: [...(batch.rowErrors ?? [])].sort((a, b) => a.row - b.row),
    accepted: counters.dry ? 0 : (batch.acceptedRows ?? 0),
    ...(stop ? { stop } : {}),
  });
  const none = { written: 0, unchanged: 0, skipped_out_of_window: 0 };
  if (property.mode === 'shadow') return answer({ ...none, dry: true, would: await dryRun(tx, writeAll) });
  const figures = await writeAll(tx);
  // A turn that is itself a dry run (the legacy cutover's shadow, X-Qc-Dry-Run) rolls the write back at its
  // end, after later reads of the same turn saw it: the write answers as one, with what it would have written.
  if (deps.actors.inDryRun()) return answer({ ...none, dry: true, would: figures });
  const counters: CalendarCounters = { ...figures, dry: false };
  if (!legacy) await recordPushCompleted(tx, property, write.endpoint, batch.rows, batch.failedRows, counters);
  return answer(counters);
}

/** The write's rows resolved against the structure read in the turn, by the rules of its kind. */
async function resolveRows(
  tx: Db,
  structure: PropertyStructure,
  property: CalendarProperty,
  write: CalendarWrite,
  window: DayWindow,
): Promise<{ batch: PlannedBatch; stop?: StagedStop }> {
  if (write.kind === 'legacy-availability') return stagedAvailabilityTables(structure, write.rows, window);
  if (write.kind === 'plan-rates')
    return { batch: planRateTables(structure, write.ratePlan, write.rows, window, write.longestCode) };
  const scope = { propertyId: property.id, visiblePropertyIds: write.visiblePropertyIds };
  if (write.kind === 'availability') return { batch: await availabilityTables(tx, structure, scope, write.rows) };
  if (write.kind === 'restrictions') return { batch: await restrictionTables(tx, structure, scope, write.rows) };
  return { batch: await priceTables(tx, structure, scope, write.rows, write.longestCode) };
}

/**
 * The per-plan write's bulk write failed and its turn rolled back: every row that was valid is reported as
 * write_failed with the database's message, and the push event is recorded in a turn of its own (nothing
 * was written). A dry run's failure rolled back with it: a shadow property records nothing.
 */
async function planWriteFailed(
  deps: Deps,
  write: ModernWrite & { rows: readonly (RateRow | RowError)[] },
  failure: CalendarWriteError,
): Promise<CalendarOutcome> {
  const rowErrors = writeFailedRows(failure.batch, write.rows, failure.detail).sort((a, b) => a.row - b.row);
  const none = { written: 0, unchanged: 0, skipped_out_of_window: 0 };
  if (failure.property.mode === 'shadow') {
    return { counters: { ...none, dry: true, would: none }, warnings: [], rowErrors, accepted: 0 };
  }
  const counters = { ...none, dry: false };
  const { batch, property } = failure;
  await deps.actors.run(property.id, (tx) =>
    recordPushCompleted(tx, property, write.endpoint, batch.rows, batch.rows, counters),
  );
  return { counters, warnings: [], rowErrors, accepted: 0 };
}

/** The `inventory.push.completed` event (spec 6.3): the push's success and failed row counts and its counters. */
async function recordPushCompleted(
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
