import { t } from 'elysia';

/** A locale tag of `name_tr` (spec 1, convention 5): `xx-XX`. */
export const LOCALE_PATTERN = '^[a-z]{2}-[A-Z]{2}$';

/** The locale an omitted `name_tr` is filled with: the platform's default language. */
export const DEFAULT_NAME_LOCALE = 'en-GB';

/**
 * `name_tr` on every request body that takes one: keys must be locale tags (`en-GB`); any other key is 422
 * `name_tr` `unknown_field`, whatever the resource.
 */
export const NameTrSchema = t.Record(t.String({ pattern: LOCALE_PATTERN }), t.String({ maxLength: 255 }), {
  additionalProperties: false,
  description: 'Locale tag (xx-XX) to text; any other key is 422',
});

/**
 * The stored `name_tr` of a created property, room type or rate plan: as sent, or, when omitted or empty,
 * the name under DEFAULT_NAME_LOCALE, so a translated-name reader never finds an empty object beside a name.
 */
export function nameTrOf(name: string, nameTr: Record<string, string> | undefined): Record<string, string> {
  return nameTr && Object.keys(nameTr).length ? nameTr : { [DEFAULT_NAME_LOCALE]: name };
}
