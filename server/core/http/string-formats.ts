// The OpenAPI plugin's module registers its formats when it loads: it must load before ours replace them.
import '@elysiajs/openapi';
import { FormatRegistry } from '@sinclair/typebox';

/**
 * The `uuid` and `date` string formats our schemas use (ids in paths and bodies, the days of offers,
 * promotions and reports, every event's data in the relay), checked by regular expressions.
 * `@elysiajs/openapi` registers TypeBox formats backed by zod (replacing Elysia's), and zod's check builds a
 * schema at every call: 16-25 us a string, about 0.2 ms of a rate plan's eight ids, as much as the POST of a
 * webhook in the relay (issue 27). These are zod's own patterns, so every answer stays as it was
 * (`string-formats.rule.test.ts`). Push rows are not concerned: their days are `DayText`, a plain pattern.
 */
export const FORMAT_PATTERNS = {
  uuid: /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/,
  date: /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))$/,
} as const;

for (const [name, pattern] of Object.entries(FORMAT_PATTERNS)) FormatRegistry.Set(name, (value) => pattern.test(value));
