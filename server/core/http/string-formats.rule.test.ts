import { describe, expect, it } from 'bun:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { t } from 'elysia';
// The registry as the service runs with it: the app loads the OpenAPI plugin, which registers its own formats.
import '../../app.ts';
import { Day } from './day-schema.ts';
import { FORMAT_PATTERNS } from './string-formats.ts';

interface FormatCase {
  value: string;
  valid: boolean;
}

/** What zod's checks (the OpenAPI plugin's, which these replace) answer for each value, but the year 0000. */
const UUIDS: FormatCase[] = [
  { value: '7d0e1b2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', valid: true },
  { value: '0190f7a0-1234-7abc-8def-0123456789ab', valid: true },
  { value: '7D0E1B2A-3C4D-4E5F-8A9B-0C1D2E3F4A5B', valid: true },
  { value: '00000000-0000-0000-0000-000000000000', valid: true },
  { value: 'ffffffff-ffff-ffff-ffff-ffffffffffff', valid: true },
  { value: '7d0e1b2a-3c4d-0e5f-8a9b-0c1d2e3f4a5b', valid: false },
  { value: '7d0e1b2a-3c4d-9e5f-8a9b-0c1d2e3f4a5b', valid: false },
  { value: '7d0e1b2a-3c4d-4e5f-7a9b-0c1d2e3f4a5b', valid: false },
  { value: '7d0e1b2a-3c4d-4e5f-8a9b-0c1d2e3f4a5', valid: false },
  { value: '7d0e1b2a3c4d-4e5f-8a9b-0c1d2e3f4a5b', valid: false },
  { value: ' 7d0e1b2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', valid: false },
  { value: 'not-a-uuid', valid: false },
  { value: '', valid: false },
];
const DAYS: FormatCase[] = [
  { value: '2026-11-26', valid: true },
  { value: '2024-02-29', valid: true },
  { value: '2000-02-29', valid: true },
  { value: '2026-12-31', valid: true },
  { value: '2026-04-30', valid: true },
  { value: '0001-01-01', valid: true },
  { value: '9999-12-31', valid: true },
  // zod takes the year 0000; PostgreSQL has none (SQLSTATE 22008), so it is refused as the field's `format`.
  { value: '0000-01-01', valid: false },
  { value: '0000-02-29', valid: false },
  { value: '2026-02-29', valid: false },
  { value: '1900-02-29', valid: false },
  { value: '2026-04-31', valid: false },
  { value: '2026-13-01', valid: false },
  { value: '2026-00-10', valid: false },
  { value: '2026-2-1', valid: false },
  { value: '2026-11-26T00:00:00Z', valid: false },
  { value: '26-11-2026', valid: false },
  { value: '', valid: false },
];

describe('the uuid and date string formats', () => {
  it('are the patterns of string-formats.ts in the running registry, not the OpenAPI plugin’s zod checks', () => {
    for (const name of ['uuid', 'date'] as const) {
      const check = FormatRegistry.Get(name);
      expect(check).toBeDefined();
      // A zod-backed check reads as `check(string3().date(), value)`; ours tests the pattern.
      expect(String(check)).toContain('pattern.test');
      expect(FORMAT_PATTERNS[name]).toBeInstanceOf(RegExp);
    }
  });

  it('answer every value as zod’s checks did but the year 0000, through a schema as a route validates it', () => {
    const uuid = t.String({ format: 'uuid' });
    expect(UUIDS.map((c) => ({ value: c.value, valid: Value.Check(uuid, c.value) }))).toEqual(UUIDS);
    expect(DAYS.map((c) => ({ value: c.value, valid: Value.Check(Day, c.value) }))).toEqual(DAYS);
  });
});
