import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { eventSpec } from '../core/event-catalog.ts';

/**
 * The relay's check of an event's data against its catalogue shape, compiled once per event type (issue 27:
 * Value.Check walked the schema for every event). The uuid and date formats are checked as the patterns of the
 * formats registered in this process (@elysiajs/openapi registers zod's, replacing Elysia's): those build a zod
 * schema at every call, about 25 us a string, which made the check cost as much of a fan-out as the POST.
 */
const FORMAT_PATTERNS: Record<string, string> = {
  uuid: '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$',
  date: '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))$',
};

const compiled = new Map<string, TypeCheck<TSchema> | null>();

/** Whether `data` fits the catalogue shape of `type`; undefined when the type is not in the catalogue. */
export function fitsCatalogue(type: string, data: unknown): boolean | undefined {
  let check = compiled.get(type);
  if (check === undefined) {
    const spec = eventSpec(type);
    check = spec ? TypeCompiler.Compile(withPatterns(spec.data)) : null;
    compiled.set(type, check);
  }
  return check ? check.Check(data) : undefined;
}

/** A copy of `schema` whose uuid and date formats are patterns (symbol keys such as TypeBox's Kind are kept). */
function withPatterns<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withPatterns) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string | symbol, unknown> = { ...(schema as Record<string | symbol, unknown>) };
  for (const key of Object.keys(out)) out[key] = withPatterns(out[key]);
  const pattern = typeof out.format === 'string' ? FORMAT_PATTERNS[out.format] : undefined;
  if (pattern && out.pattern === undefined) {
    out.format = undefined;
    delete out.format;
    out.pattern = pattern;
  }
  return out as T;
}
