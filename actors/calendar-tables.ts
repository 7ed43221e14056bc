import type { Db } from '../server/core/db/db.ts';
import { type AvailabilityValue, writeAvailability } from './availability-writes.ts';
import type { DayWindow } from './calendar-window.ts';
import {
  type PairTarget,
  type Prices,
  type RestrictionValues,
  writeRates,
  writeRestrictions,
} from './calendar-writes.ts';
import type { DayRows } from './day-rows.ts';
import type { RowError } from './plan-rate-row.ts';
import type { PushWarning } from './push-warnings.ts';

/** What a batch expands to, per calendar table. */
export interface CalendarTables {
  availability?: DayRows<number, AvailabilityValue>;
  rates?: DayRows<PairTarget, Prices>;
  restrictions?: DayRows<PairTarget, RestrictionValues>;
}

/** A batch resolved against the property's structure in its turn: its day-rows, and what to report per row. */
export interface PlannedBatch {
  tables: CalendarTables;
  /** Request rows, and how many of them were refused in whole or in part. */
  rows: number;
  failedRows: number;
  /** Row warnings of the inventory pushes (spec 4.4 rule 3). */
  warnings?: PushWarning[];
  /** Row errors of the per-plan rate write (spec 7.2), and its rows inside the window. */
  rowErrors?: RowError[];
  acceptedRows?: number;
}

/** What a write did (or, in `would`, what a dry run found it would do) to the day-rows of a batch. */
export interface WriteFigures {
  written: number;
  unchanged: number;
  skipped_out_of_window: number;
}

/** Writes each table of the batch, inside the window, in one statement per table; counts day-rows. */
export async function writeTables(
  tx: Db,
  tables: CalendarTables,
  window: DayWindow,
  stamp: Date,
): Promise<WriteFigures> {
  const counters: WriteFigures = { written: 0, unchanged: 0, skipped_out_of_window: 0 };
  const add = (split: { days: number; outside: number }, written: number) => {
    counters.written += written;
    counters.unchanged += split.days - written;
    counters.skipped_out_of_window += split.outside;
  };
  if (tables.availability) {
    const split = tables.availability.within(window.from, window.to);
    add(split, await writeAvailability(tx, split.inside, stamp));
  }
  if (tables.rates) {
    const split = tables.rates.within(window.from, window.to);
    add(split, await writeRates(tx, split.inside, stamp));
  }
  if (tables.restrictions) {
    const split = tables.restrictions.within(window.from, window.to);
    add(split, await writeRestrictions(tx, split.inside, stamp));
  }
  return counters;
}
