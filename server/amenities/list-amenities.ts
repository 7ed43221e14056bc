import { t } from 'elysia';
import { fieldError } from '../core/http/api-error.ts';
import { ok, okSchema } from '../core/http/envelope.ts';
import { queryInteger } from '../core/http/named-integer.ts';
import { defineRoute } from '../core/routes/route.ts';
import { isPropertyType } from '../properties/property-types.ts';
import { groupedCatalogue } from './catalogue.ts';
import { amenityLocale } from './locale.ts';
import { AmenitySchema } from './model.ts';

export const listAmenities = defineRoute({
  name: 'qc.amenities.list',
  method: 'GET',
  path: '/amenities',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'amenity',
  summary: 'The amenity catalogue, grouped, in the request locale',
  tags: ['amenities'],
  description: [
    'Seeded from the OpenTravel Alliance code lists: HAC (hotel amenities, `level=property`) and RMA (room',
    'amenities, `level=unit`); a subset of common codes with their official OTA English names. Names follow',
    '`Accept-Language` (en-GB, de-DE, fr-FR, es-ES; `de-AT` reads German) and fall back to English; `locale`',
    'says which was used. `property_type_id` (GET /property-types) leaves out amenities that do not apply to that',
    'type; an id the dictionary lacks is 422 `property_type_id` `in`, as `type_id` is on POST /properties. Parametric amenities list `options` with their value lists; assign them with PUT .../amenities.',
  ].join(' '),
  query: t.Object({
    level: t.Optional(t.Union([t.Literal('property'), t.Literal('unit')])),
    property_type_id: t.Optional(queryInteger('property_type_id', 1, 2_147_483_647, 'An id of GET /property-types')),
  }),
  response: okSchema(
    t.Object({
      locale: t.String(),
      groups: t.Array(
        t.Object({
          code: t.String(),
          level: t.Union([t.Literal('property'), t.Literal('unit')]),
          name: t.String(),
          amenities: t.Array(AmenitySchema),
        }),
      ),
    }),
  ),
  handle({ request, query }) {
    // One rule for dictionary ids: an unknown one is refused wherever it is sent, never read as "no filter".
    if (query.property_type_id !== undefined && !isPropertyType(query.property_type_id))
      throw fieldError('amenity', 'property_type_id', 'in');
    const locale = amenityLocale(request.headers.get('accept-language'));
    return ok({ locale, groups: groupedCatalogue(locale, query.level, query.property_type_id) });
  },
});
