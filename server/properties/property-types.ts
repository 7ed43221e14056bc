import { t } from 'elysia';
import { ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { routes } from '../core/routes/route-table.ts';

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

export function registerPropertyTypes(app: QcApp) {
  app.get(routes.propertyTypesList.path, () => ok({ property_types: [...PROPERTY_TYPES] }), {
    qc: routes.propertyTypesList,
    detail: {
      summary: routes.propertyTypesList.summary,
      tags: ['properties'],
      description:
        'A fixed dictionary: cache it. Entries are `{id, code, name}`; `id` is the `type_id` of POST /properties.',
    },
    response: t.Object({
      status: t.Literal('ok'),
      message: t.String(),
      data: t.Object({ property_types: t.Array(t.Object({ id: t.Integer(), code: t.String(), name: t.String() })) }),
    }),
  });
}
