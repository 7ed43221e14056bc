import {
  type Prices,
  RESTRICTION_FIELDS,
  type RestrictionField,
  type RestrictionValues,
} from '../../actors/calendar-writes.ts';
import type { RateRow, RowError } from '../../actors/plan-rate-row.ts';
import { parseDay } from '../core/days.ts';

const MAX_PRICE = 100_000_000;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

export function parseRateRow(entry: unknown, row: number): RateRow | RowError {
  if (!isObject(entry)) return { row, code: 'malformed_row', message: 'entry is not an object' };
  const day = typeof entry.date === 'string' ? parseDay(entry.date) : undefined;
  if (day === undefined) return { row, code: 'bad_date', field: 'date', message: 'date missing or not YYYY-MM-DD' };
  const date = entry.date as string;
  const parsed: RateRow = { row, day, date };

  if (entry.room_type_id !== undefined) {
    if (typeof entry.room_type_id !== 'string' || !entry.room_type_id) {
      return { row, code: 'malformed_row', field: 'room_type_id', message: 'room_type_id must be a non-empty string' };
    }
    parsed.roomTypeId = entry.room_type_id;
  }

  if (entry.prices !== undefined && entry.prices !== null) {
    if (!isObject(entry.prices))
      return { row, code: 'malformed_row', field: 'prices', message: 'prices must be an object' };
    const prices: Prices = {};
    for (const [code, value] of Object.entries(entry.prices)) {
      if (!code.trim()) return { row, code: 'bad_acm_key', field: 'prices', date, message: 'occupancy key is empty' };
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_PRICE) {
        return {
          row,
          code: 'malformed_row',
          field: `prices.${code}`,
          message: `price must be a number from 0 to ${MAX_PRICE}`,
        };
      }
      prices[code] = value;
    }
    if (Object.keys(prices).length) parsed.prices = prices;
  }

  if (entry.restrictions !== undefined && entry.restrictions !== null) {
    if (!isObject(entry.restrictions)) {
      return { row, code: 'malformed_row', field: 'restrictions', message: 'restrictions must be an object' };
    }
    const restrictions: Record<string, number | boolean> = {};
    for (const [key, value] of Object.entries(entry.restrictions)) {
      if (!(RESTRICTION_FIELDS as readonly string[]).includes(key)) {
        return {
          row,
          code: 'bad_restriction_key',
          field: `restrictions.${key}`,
          date,
          message: `allowed: ${RESTRICTION_FIELDS.join(', ')}`,
        };
      }
      const problem = restrictionProblem(key as RestrictionField, value);
      if (problem) return { row, code: 'malformed_row', field: `restrictions.${key}`, message: problem };
      restrictions[key] = value as number | boolean;
    }
    const { min_los, max_los } = restrictions;
    if (typeof min_los === 'number' && typeof max_los === 'number' && min_los > max_los) {
      return { row, code: 'malformed_row', field: 'restrictions.max_los', message: 'max_los is below min_los' };
    }
    if (Object.keys(restrictions).length) parsed.restrictions = restrictions as RestrictionValues;
  }

  if (!parsed.prices && !parsed.restrictions) {
    return { row, code: 'malformed_row', message: 'row has neither prices nor restrictions' };
  }
  return parsed;
}

function restrictionProblem(field: RestrictionField, value: unknown): string | undefined {
  if (field === 'min_los' || field === 'max_los') {
    return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 999
      ? undefined
      : `${field} must be an integer from 1 to 999`;
  }
  return typeof value === 'boolean' ? undefined : `${field} must be a boolean`;
}
