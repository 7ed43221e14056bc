import { accepted, acceptedSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CatalogueSyncBody, CatalogueSyncJobSchema } from './model.ts';
import { runCatalogueSync } from './sync.ts';

export const createCatalogueSync = defineRoute({
  name: 'qc.catalogue_sync.create',
  method: 'POST',
  path: '/catalogue-sync',
  scope: 'properties.manage',
  bucket: 'config-writes',
  resource: 'catalogue_sync',
  summary: 'Group-level full-replacement catalogue job',
  tags: ['catalogue'],
  description: [
    'Body `{properties: [{property_id, rooms?, rates?, meals?}], clear_unlisted?}`. A full replacement over',
    'the properties the token may act on: each listed property (external id or partner code) gets exactly',
    'the given catalogue; with `clear_unlisted: true` (default false, so naming one property touches no other)',
    'every other such property that still has codes is emptied. A property listed twice (by either its external id',
    'or its partner code): 422 rule `duplicate` on `properties.N.property_id`, nothing written. Answers 202',
    'with the job `{id, status, counts: {replaced, cleared, failed}, properties: [{property_id,',
    'requested_as?, outcome: replaced|cleared|failed, error?}]}`; read it again with GET',
    '/catalogue-sync/{id}. Status is `queued`, `running`, `completed` or `failed`. Today the job completes',
    "within the request, in one transaction; a listed property outside the token's reach fails alone",
    '(`errors.not_found`).',
  ].join(' '),
  body: CatalogueSyncBody,
  status: 202,
  response: acceptedSchema(CatalogueSyncJobSchema),
  async handle({ deps, principal, body }) {
    return accepted(await runCatalogueSync(deps, principal, body));
  },
});
