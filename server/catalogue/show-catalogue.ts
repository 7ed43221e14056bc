import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { StoredCatalogueSchema } from './model.ts';
import { readCatalogue } from './service.ts';

export const showCatalogue = defineRoute({
  name: 'qc.catalogue.show',
  method: 'GET',
  path: '/properties/:property/catalogue',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'catalogue',
  summary: 'Read the partner catalogue',
  tags: ['catalogue'],
  description:
    'The catalogue `{rooms, rates, meals}` last pushed to this property (PUT or POST /catalogue-sync), as PUT answered it. A property nothing was pushed to answers empty arrays and `updated_at: null`.',
  params: PropertyParams,
  response: okSchema(StoredCatalogueSchema),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps }, property) => {
    return ok(await readCatalogue(deps.db, property));
  }),
});
