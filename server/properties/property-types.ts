/**
 * The property-type dictionary (spec 2.1): an entry's integer `id` is the `type_id` of POST /properties.
 * The spec shows no other field; we add `name` (English) and `code` (stable machine name).
 */
export const PROPERTY_TYPES = [
  { id: 1, code: 'hotel', name: 'Hotel' },
  { id: 2, code: 'apartment', name: 'Apartment' },
  { id: 3, code: 'guest_house', name: 'Guest house' },
  { id: 4, code: 'hostel', name: 'Hostel' },
  { id: 5, code: 'villa', name: 'Villa' },
  { id: 6, code: 'resort', name: 'Resort' },
  { id: 7, code: 'bed_and_breakfast', name: 'Bed and breakfast' },
  { id: 8, code: 'campsite', name: 'Campsite' },
] as const;

export function isPropertyType(id: number): boolean {
  return PROPERTY_TYPES.some((p) => p.id === id);
}
