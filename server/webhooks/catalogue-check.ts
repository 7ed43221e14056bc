import type { TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { eventSpec } from '../core/event-catalog.ts';
// The uuid and date formats the catalogue's shapes use, checked by patterns rather than the OpenAPI plugin's.
import '../core/http/string-formats.ts';

/**
 * The relay's check of an event's data against its catalogue shape, compiled once per event type (issue 27:
 * Value.Check walked the schema for every event, and with the OpenAPI plugin's uuid and date formats it cost
 * as much of a fan-out as the POST; see server/core/http/string-formats.ts).
 */
const compiled = new Map<string, TypeCheck<TSchema> | null>();

/** Whether `data` fits the catalogue shape of `type`; undefined when the type is not in the catalogue. */
export function fitsCatalogue(type: string, data: unknown): boolean | undefined {
  let check = compiled.get(type);
  if (check === undefined) {
    const spec = eventSpec(type);
    check = spec ? TypeCompiler.Compile(spec.data) : null;
    compiled.set(type, check);
  }
  return check ? check.Check(data) : undefined;
}
