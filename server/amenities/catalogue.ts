import { AMENITY_LOCALES, type AmenityLocale } from './locale.ts';
import { type AmenitySpec, HOTEL_AMENITIES, PROPERTY_GROUPS, ROOM_AMENITIES, UNIT_GROUPS } from './ota-codes.ts';

export type AmenityLevel = 'property' | 'unit';

/** `HAC.68`: the code list and the OTA code, the id partners send and read. */
export const amenityId = (a: AmenitySpec) => `${a.list}.${a.code}`;

const BY_ID = new Map([...HOTEL_AMENITIES, ...ROOM_AMENITIES].map((a) => [amenityId(a), a]));

export function amenityById(id: string): AmenitySpec | undefined {
  return BY_ID.get(id);
}

export function levelOf(a: AmenitySpec): AmenityLevel {
  return a.list === 'HAC' ? 'property' : 'unit';
}

const nameAt = (names: readonly string[], locale: AmenityLocale) => names[AMENITY_LOCALES.indexOf(locale)] ?? names[0];

export function amenityEntry(a: AmenitySpec, locale: AmenityLocale) {
  return {
    id: amenityId(a),
    code_list: a.list,
    code: a.code,
    level: levelOf(a),
    name: nameAt(a.names, locale) as string,
    options: (a.options ?? []).map((o) => ({
      key: o.key,
      name: nameAt(o.names, locale) as string,
      values: o.values.map((v) => ({ code: v.code, name: nameAt(v.names, locale) as string })),
    })),
  };
}

/** The catalogue grouped, in the catalogue's order, for a level and (optionally) a property type. */
export function groupedCatalogue(locale: AmenityLocale, level: AmenityLevel | undefined, propertyTypeId?: number) {
  const levels: AmenityLevel[] = level ? [level] : ['property', 'unit'];
  return levels.flatMap((l) => {
    const groups = l === 'property' ? PROPERTY_GROUPS : UNIT_GROUPS;
    const amenities = (l === 'property' ? HOTEL_AMENITIES : ROOM_AMENITIES).filter(
      (a) => propertyTypeId === undefined || !a.types || a.types.includes(propertyTypeId),
    );
    return Object.entries(groups)
      .map(([code, names]) => ({
        code,
        level: l,
        name: nameAt(names, locale) as string,
        amenities: amenities.filter((a) => a.group === code).map((a) => amenityEntry(a, locale)),
      }))
      .filter((g) => g.amenities.length > 0);
  });
}

/**
 * Problems of one assignment: an id not in the catalogue or of the other level (`in`), an option key the
 * amenity does not have or a value outside its list (`in`), an id given twice (`unique`).
 */
export function assignmentErrors(
  level: AmenityLevel,
  assignments: readonly { id: string; options?: Record<string, string> }[],
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const rule = ['customer.amenity.messages.in'];
  const seen = new Set<string>();
  for (const [index, assignment] of assignments.entries()) {
    if (seen.has(assignment.id)) errors[`amenities.${index}.id`] = ['customer.amenity.messages.unique'];
    seen.add(assignment.id);
    const spec = amenityById(assignment.id);
    if (!spec || levelOf(spec) !== level) {
      errors[`amenities.${index}.id`] = rule;
      continue;
    }
    for (const [key, value] of Object.entries(assignment.options ?? {})) {
      const option = spec.options?.find((o) => o.key === key);
      if (!option?.values.some((v) => v.code === value)) errors[`amenities.${index}.options.${key}`] = rule;
    }
  }
  return errors;
}
