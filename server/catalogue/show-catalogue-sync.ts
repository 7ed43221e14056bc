import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CatalogueSyncJobSchema, JobParams } from './model.ts';
import { readCatalogueSync } from './sync.ts';

export const showCatalogueSync = defineRoute({
  name: 'qc.catalogue_sync.show',
  method: 'GET',
  path: '/catalogue-sync/:job',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'catalogue_sync',
  summary: 'Outcome of a catalogue-sync job',
  tags: ['catalogue'],
  description: 'The job as POST /catalogue-sync answered it. Jobs of other customers are 404.',
  params: JobParams,
  response: okSchema(CatalogueSyncJobSchema),
  errors: ['errors.not_found'],
  async handle({ deps, principal, params }) {
    return ok(await readCatalogueSync(deps, principal, params.job));
  },
});
