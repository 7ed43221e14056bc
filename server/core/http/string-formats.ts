// The OpenAPI plugin's module registers its formats when it loads: it must load before ours replace them.
import '@elysiajs/openapi';
import { FormatRegistry } from '@sinclair/typebox';

/**
 * The `uuid` and `date` string formats our schemas use (ids in paths and bodies, the days of offers,
 * promotions and reports, every event's data in the relay), checked by regular expressions.
 * `@elysiajs/openapi` registers TypeBox formats backed by zod (replacing Elysia's), and zod's check builds a
 * schema at every call: 16-25 us a string, about 0.2 ms of a rate plan's eight ids, as much as the POST of a
 * webhook in the relay (issue 27). These are zod's own patterns, so every answer stays as it was
 * (`string-formats.rule.test.ts`), but for the year 0000, which zod takes and PostgreSQL cannot store (its
 * calendar has no year 0): refused here, it is a 422 `format` naming the field rather than the class-22 net's
 * `request`. Push rows are not concerned: their days are `DayText`, a plain pattern read by parseDay.
 */
export const FORMAT_PATTERNS = {
  uuid: /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/,
  date: /^(?!0000)(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/,
} as const;

for (const [name, pattern] of Object.entries(FORMAT_PATTERNS)) FormatRegistry.Set(name, (value) => pattern.test(value));

/** The date part of a date-time written year first (`2026-02-30T10:00:00Z`, `2026/02/30 10:00`). */
const YEAR_FIRST_DATE = /(\d{4})[-/](\d{1,2})[-/](\d{1,2})/;

/**
 * Whether PostgreSQL stores a date-time as the instant it names, and gives that instant back. A handler stores
 * `new Date(value)`, which reaches PostgreSQL as its ISO form: one JavaScript cannot read (a value in quotes,
 * which Elysia's check unquotes) was a 500, and an instant outside the years 0001-9999 (`0000-06-01T00:00:00Z`,
 * `-002026-01-01T00:00:00Z`) is one PostgreSQL refuses. Before the year 0100 it is stored but read back wrong:
 * both drivers read PostgreSQL's text `0001-01-01 00:00:00+00` with `new Date`, which takes it for 2001. A day
 * that does not exist (`2026-02-30`) is refused by PostgreSQL too, where JavaScript rolls it over to 2 March.
 */
function storableDateTime(value: string): boolean {
  const [, year = '', month = '', day = ''] = YEAR_FIRST_DATE.exec(value) ?? [];
  if (year && !FORMAT_PATTERNS.date.test(`${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`)) return false;
  const instantYear = new Date(value).getUTCFullYear();
  return instantYear >= 100 && instantYear <= 9999;
}

// `date-time` stays the check Elysia registers (RFC 3339, and the looser forms it has always taken), narrowed to
// what PostgreSQL stores: a 422 `format` naming the field instead of the class-22 net's `request`, or a 500.
const elysiaDateTime = FormatRegistry.Get('date-time');
if (!elysiaDateTime) throw new Error('Elysia registers the date-time format when it loads: load it first');
FormatRegistry.Set('date-time', (value) => elysiaDateTime(value) && storableDateTime(value));
