import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { RESTRICTION_FIELDS } from '../../actors/calendar-writes.ts';
import type { RateRow, RowError } from '../../actors/plan-rate-row.ts';
import { parseDay } from '../core/days.ts';
import { DayText } from '../core/http/day-schema.ts';

const MAX_PRICE = 100_000_000;
const LOS = Type.Integer({ minimum: 1, maximum: 999 });
const Price = Type.Number({ minimum: 0, maximum: MAX_PRICE });
/** An occupancy code: any key that is not blank. */
const CODE = '^(?!\\s*$)[\\s\\S]+$';

const RestrictionsSchema = Type.Object(
  {
    min_los: Type.Optional(LOS),
    max_los: Type.Optional(LOS),
    stop_sell: Type.Optional(Type.Boolean()),
    closed_to_arrival: Type.Optional(Type.Boolean()),
    closed_to_departure: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * One row of the per-plan rate write. The body takes `values` as unknown entries because a bad row is a row
 * error, not a 422 of the batch: each entry is checked against this schema, and when it fails, the first
 * failing part in the order of spec 7.2 (object, date, room_type_id, prices code by code, restrictions key
 * by key) names the row's code. `null` prices or restrictions count as absent.
 */
export const RateWriteRow = Type.Object({
  date: DayText,
  room_type_id: Type.Optional(Type.String({ minLength: 1 })),
  prices: Type.Optional(Type.Record(Type.String({ pattern: CODE }), Price, { additionalProperties: false })),
  restrictions: Type.Optional(RestrictionsSchema),
});
type RateWriteRow = Static<typeof RateWriteRow>;

export function parseRateRow(entry: unknown, row: number): RateRow | RowError {
  if (!Value.Check(Type.Object({}), entry)) return { row, code: 'malformed_row', message: 'entry is not an object' };
  const fields = withoutNulls(entry as Record<string, unknown>);
  const day = Value.Check(RateWriteRow.properties.date, fields.date) ? parseDay(fields.date as string) : undefined;
  if (day === undefined) return { row, code: 'bad_date', field: 'date', message: 'date missing or not YYYY-MM-DD' };
  if (!Value.Check(RateWriteRow, fields)) return firstProblem(row, fields);
  const { date, room_type_id, prices, restrictions } = fields as RateWriteRow;
  if (
    restrictions?.min_los !== undefined &&
    restrictions.max_los !== undefined &&
    restrictions.min_los > restrictions.max_los
  )
    return { row, code: 'malformed_row', field: 'restrictions.max_los', message: 'max_los is below min_los' };
  const parsed: RateRow = { row, day, date };
  if (room_type_id !== undefined) parsed.roomTypeId = room_type_id;
  if (prices && Object.keys(prices).length) parsed.prices = prices;
  if (restrictions && Object.keys(restrictions).length) parsed.restrictions = restrictions;
  if (!parsed.prices && !parsed.restrictions)
    return { row, code: 'malformed_row', message: 'row has neither prices nor restrictions' };
  return parsed;
}

function withoutNulls(entry: Record<string, unknown>): Record<string, unknown> {
  const { prices, restrictions, ...rest } = entry;
  return { ...rest, ...(prices === null ? {} : { prices }), ...(restrictions === null ? {} : { restrictions }) };
}

/** The row's first failing part against RateWriteRow, in the order the codes of spec 7.2 are checked. */
function firstProblem(row: number, fields: Record<string, unknown>): RowError {
  const date = fields.date as string;
  const malformed = (field: string, message: string): RowError => ({ row, code: 'malformed_row', field, message });
  const { room_type_id, prices, restrictions } = fields;
  const schema = RateWriteRow.properties;
  if (room_type_id !== undefined && !Value.Check(schema.room_type_id, room_type_id))
    return malformed('room_type_id', 'room_type_id must be a non-empty string');
  if (prices !== undefined) {
    if (!Value.Check(Type.Object({}), prices)) return malformed('prices', 'prices must be an object');
    for (const [code, value] of Object.entries(prices as object)) {
      if (!new RegExp(CODE).test(code))
        return { row, code: 'bad_acm_key', field: 'prices', date, message: 'occupancy key is empty' };
      if (!Value.Check(Price, value))
        return malformed(`prices.${code}`, `price must be a number from 0 to ${MAX_PRICE}`);
    }
  }
  if (!Value.Check(Type.Object({}), restrictions)) return malformed('restrictions', 'restrictions must be an object');
  for (const [key, value] of Object.entries(restrictions as object)) {
    const field = (RestrictionsSchema.properties as Record<string, TSchema>)[key];
    if (!field) {
      const allowed = `allowed: ${RESTRICTION_FIELDS.join(', ')}`;
      return { row, code: 'bad_restriction_key', field: `restrictions.${key}`, date, message: allowed };
    }
    if (!Value.Check(field, value)) {
      const rule = key === 'min_los' || key === 'max_los' ? 'an integer from 1 to 999' : 'a boolean';
      return malformed(`restrictions.${key}`, `${key} must be ${rule}`);
    }
  }
  return { row, code: 'malformed_row', message: 'row does not match the row schema' };
}
