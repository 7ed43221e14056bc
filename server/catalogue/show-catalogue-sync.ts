import { ok, okSchema } from '../core/http/envelope.ts';
import { defineRoute } from '../core/routes/route.ts';
import { CatalogueSyncJobSchema, JobParams } from './model.ts';
import { pathSyncJob } from './path-sync-job.ts';
import { catalogueSyncView } from './sync.ts';

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
  pathRecord: pathSyncJob,
  handle(_, job) {
    return ok(catalogueSyncView(job));
  },
});
