import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { FormatRegistry } from '@sinclair/typebox';
import fc from 'fast-check';
// The registry as the service runs with it: the app loads the OpenAPI plugin, which registers its own formats.
import '../../app.ts';
import type { Db } from '../db/db.ts';
import { openPglite } from '../db/pglite.ts';
import { openPostgres } from '../db/postgres.ts';

/**
 * A value a string format accepts is one PostgreSQL stores: `0000-01-01` passed the `date` format and failed in
 * the database (SQLSTATE 22008), so only the class-22 net caught it, answering 422 on `request` instead of the
 * field. Checked on both backends, over years 0000-9999 and, for date-times, the forms around them.
 */
const backends: [string, () => Promise<Db>][] = [['embedded', () => openPglite(undefined)]];
if (process.env.DATABASE_URL)
  backends.push([
    'PostgreSQL',
    async () =>
      openPostgres(process.env.DATABASE_URL as string, {
        timeoutMs: 5000,
        sessionUrl: process.env.DATABASE_SESSION_URL,
      }),
  ]);

const accepts = (format: string, value: string) => (FormatRegistry.Get(format) as (v: string) => boolean)(value);
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Years as the formats see them: all four-digit ones, the edges (0000 above all) more often than chance would. */
const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 9999, 10000));

const dateText = fc
  .tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);

/** Date-times in and around RFC 3339: expanded years, impossible days and times, zones or none, quotes. */
const dateTimeText = fc
  .record({
    sign: fc.constantFrom('', '', '', '+00', '-00'),
    year,
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    separator: fc.constantFrom('T', ' ', 't'),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 61 }),
    fraction: fc.constantFrom('', '.5', '.123', '.123456'),
    zone: fc.constantFrom('Z', 'z', '+00:00', '+01:00', '-01:00', '+14:00', '-12:00', '+05:30', '+0100', ''),
    quote: fc.constantFrom('', '', '', '"'),
  })
  .map(
    (v) =>
      `${v.quote}${v.sign}${pad(v.year, 4)}-${pad(v.month, 2)}-${pad(v.day, 2)}${v.separator}` +
      `${pad(v.hour, 2)}:${pad(v.minute, 2)}:${pad(v.second, 2)}${v.fraction}${v.zone}${v.quote}`,
  );

describe.each(backends)('the string formats on %s', (_, open) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('take only dates PostgreSQL stores, each read back as written', async () => {
    await fc.assert(
      fc.asyncProperty(dateText, async (text) => {
        if (!accepts('date', text)) return;
        const [row] = await db.query<{ day: string }>('select $1::date::text as day', [text]);
        expect(row?.day).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('take only date-times PostgreSQL stores and gives back as the instant a handler reads, on the day they name', async () => {
    await fc.assert(
      fc.asyncProperty(dateTimeText, async (text) => {
        if (!accepts('date-time', text)) return;
        // A handler stores `new Date(value)` (guest feedback's answered_at): that instant, and no other.
        const instant = new Date(text);
        const [row] = await db.query<{ at: Date }>('select $1::timestamptz as at', [instant]);
        expect(row?.at.getTime()).toBe(instant.getTime());
        // The day written is one PostgreSQL reads (2026-02-30 is not: JavaScript rolls it over to 2 March).
        const day = /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0];
        if (day === undefined) return;
        const [read] = await db.query<{ day: string }>('select $1::date::text as day', [day]);
        expect(read?.day).toBe(day);
      }),
      { numRuns: 400 },
    );
  });
});

describe('the date-time format', () => {
  it('refuses what PostgreSQL cannot store and keeps every form it took', () => {
    const cases = [
      '0000-06-01T00:00:00Z',
      '-002026-01-01T00:00:00Z',
      '+010000-01-01T00:00:00Z',
      '"2026-01-01T00:00:00Z"',
      '2026-02-30T00:00:00Z',
      '2026/02/30 10:00',
      '0001-01-01T00:00:00Z',
      '0099-12-31T23:59:59Z',
      '2026-01-01T00:00:00Z',
      '0100-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '2026-01-01 00:00:00+01',
      '2026-01-01T24:00:00Z',
      '01/02/2026 10:00 PM',
      'Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time)',
    ];
    expect(Object.fromEntries(cases.map((value) => [value, accepts('date-time', value)]))).toEqual({
      '0000-06-01T00:00:00Z': false,
      '-002026-01-01T00:00:00Z': false,
      '+010000-01-01T00:00:00Z': false,
      '"2026-01-01T00:00:00Z"': false,
      '2026-02-30T00:00:00Z': false,
      '2026/02/30 10:00': false,
      '0001-01-01T00:00:00Z': false,
      '0099-12-31T23:59:59Z': false,
      '2026-01-01T00:00:00Z': true,
      '0100-01-01T00:00:00Z': true,
      '9999-12-31T23:59:59.999Z': true,
      '2026-01-01 00:00:00+01': true,
      '2026-01-01T24:00:00Z': true,
      '01/02/2026 10:00 PM': true,
      'Thu Jan 01 2026 00:00:00 GMT+0000 (Coordinated Universal Time)': true,
    });
  });
});
