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

/**
 * The stored `name_tr` of a record renamed by a PATCH without `name_tr`. When it is exactly what creation filled in
 * from the old name (nameTrOf: the one entry, the default locale, the old name) it follows the new name, so a
 * translated-name reader (the booking engine) does not show the old one; a `name_tr` the partner set stays.
 */
export function renamedNameTr(
  stored: Record<string, string>,
  oldName: string,
  newName: string,
): Record<string, string> {
  const locales = Object.keys(stored);
  const autoFilled =
    locales.length === 1 && locales[0] === DEFAULT_NAME_LOCALE && stored[DEFAULT_NAME_LOCALE] === oldName;
  return autoFilled ? { [DEFAULT_NAME_LOCALE]: newName } : stored;
}
