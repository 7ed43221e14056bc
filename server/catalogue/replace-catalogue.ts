import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { CatalogueBody, CatalogueSchema } from './model.ts';
import { putCatalogue } from './service.ts';

export const replaceCatalogue = defineRoute({
  name: 'qc.catalogue.replace',
  method: 'PUT',
  path: '/properties/:property/catalogue',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'catalogue',
  summary: 'Replace the partner catalogue',
  tags: ['catalogue'],
  description:
    'Replaces the whole catalogue `{rooms, rates, meals}` (entries `{code, name}`); an omitted array becomes empty. A code repeated within one array is 422 (`rooms.<i>.code`). Answers the stored catalogue.',
  params: PropertyParams,
  body: CatalogueBody,
  response: okSchema(CatalogueSchema),
  errors: ['errors.not_found'],
  handle: inProperty(async ({ deps, body }, property) => {
    return ok(await putCatalogue(deps, property, body));
  }),
});
