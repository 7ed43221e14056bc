import { t } from 'elysia';
import { DECLARED_KEYS } from './http/undeclared-fields.ts';

/** A locale tag of `name_tr` (spec 1, convention 5): `xx-XX`. */
export const LOCALE_PATTERN = '^[a-z]{2}-[A-Z]{2}$';

/** The locale an omitted `name_tr` is filled with: the platform's default language. */
export const DEFAULT_NAME_LOCALE = 'en-GB';

/**
 * `name_tr` on every request body that takes one: keys are locale tags (`en-GB`). Another key is stored as sent,
 * as v1 always did, and named in the answer's `warnings` (`errors.qc.unknown_field`, server/core/http/
 * undeclared-fields.ts): refusing it (422, 2026-11-22) broke v1 callers, which spec 9.1 does not allow.
 */
export const NameTrSchema = t.Record(t.String(), t.String({ maxLength: 255 }), {
  [DECLARED_KEYS]: LOCALE_PATTERN,
  description:
    'Locale tag (xx-XX) to text. Another key is stored as sent and named in `warnings` (errors.qc.unknown_field): no platform language reads it. Omitted or {} on creation: {"en-GB": <name>}',
});

/**
 * The stored `name_tr` of a created property, room type or rate plan: as sent, or, when omitted or empty,
 * the name under DEFAULT_NAME_LOCALE, so a translated-name reader never finds an empty object beside a name.
 */
export function nameTrOf(name: string, nameTr: Record<string, string> | undefined): Record<string, string> {
  return nameTr && Object.keys(nameTr).length ? nameTr : { [DEFAULT_NAME_LOCALE]: name };
}
