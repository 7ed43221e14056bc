import type { PathRecordResolver } from '../core/routes/path-record.ts';
import { findCatalogueSync, type JobRow } from './sync.ts';

/**
 * The job of GET /catalogue-sync/:job, declared as the route's `pathRecord`: the pipeline resolves it for the
 * caller before anything else of the request is read, so another customer's job, an unknown id or one that is no
 * UUID is a 404 (README, Authorization), and the handler answers the row it found.
 */
export const pathSyncJob: PathRecordResolver<JobRow> = (deps, principal, params) =>
  findCatalogueSync(deps.db, principal, params.job ?? '');
